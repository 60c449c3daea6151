import { anyUuid } from '../db/any-of.js';
import { insertRows, type Trx, upsertById } from './upsert.js';
import { toMinor } from '../lib/money.js';
import type { VenueData } from './venue-data.schema.js';

type Venue = VenueData['venues'][number];

/**
 * A venue and everything it owns; child collections are replaced by the file's. Rooms, treatments and variants
 * the file drops are deleted later (dropMissingChildren), once the file's bookings no longer point at them.
 */
export async function upsertVenue(trx: Trx, venue: Venue): Promise<void> {
  await upsertById(trx, 'venues', [
    {
      id: venue.id,
      organisation_id: venue.organisation_id,
      slug: venue.slug,
      status: venue.status,
      venue_type: venue.venue_type,
      name: venue.name,
      name_en: venue.name_en,
      description: venue.description,
      description_en: venue.description_en,
      landing_subtitle: venue.landing_subtitle,
      address: venue.address,
      postal_code: venue.postal_code,
      city: venue.city,
      country: venue.country,
      currency: venue.currency,
      timezone: venue.timezone,
      vat: venue.vat,
      image: venue.image,
      cover_image: venue.cover_image,
      opening_time: venue.opening_time,
      closing_time: venue.closing_time,
      slot_interval: venue.slot_interval,
      schedule_type: venue.schedule.type,
      days_of_week: venue.schedule.days_of_week,
      recurrence_interval: venue.schedule.recurrence_interval,
      recurring_start_date: venue.schedule.start_date,
      recurring_end_date: venue.schedule.end_date,
      offert: venue.offert,
      booking_hold_enabled: venue.booking_hold_enabled,
      booking_hold_duration_minutes: venue.booking_hold_duration_minutes,
      allow_out_of_hours_booking: venue.allow_out_of_hours_booking,
      out_of_hours_surcharge_percent: venue.out_of_hours_surcharge_percent,
      room_turnover_buffer_minutes: venue.room_turnover_buffer_minutes,
      inter_venue_buffer_minutes: venue.inter_venue_buffer_minutes,
      therapist_response_minutes: venue.therapist_response_minutes,
      cancellation_policy: JSON.stringify(venue.cancellation_policy),
    },
  ]);

  await trx.deleteFrom('one_time_openings').where('venue_id', '=', venue.id).execute();
  await insertRows(
    trx,
    'one_time_openings',
    venue.one_time_openings.map((o) => ({ venue_id: venue.id, ...o })),
  );

  await trx.deleteFrom('venue_blocks').where('venue_id', '=', venue.id).execute();
  await upsertById(
    trx,
    'venue_blocks',
    venue.blocks.map((b) =>
      'start_time' in b
        ? {
            id: b.id,
            venue_id: venue.id,
            daily: true,
            start_time: b.start_time,
            end_time: b.end_time,
            start_at: null,
            end_at: null,
            reason: b.reason,
          }
        : {
            id: b.id,
            venue_id: venue.id,
            daily: false,
            start_time: null,
            end_time: null,
            start_at: b.start_at,
            end_at: b.end_at,
            reason: b.reason,
          },
    ),
  );

  await upsertById(
    trx,
    'rooms',
    venue.rooms.map((r) => ({ id: r.id, venue_id: venue.id, name: r.name, capacity: r.capacity })),
  );

  await upsertById(
    trx,
    'treatments',
    venue.treatments.map((t, position) => ({
      id: t.id,
      venue_id: venue.id,
      position,
      name: t.name,
      name_en: t.name_en,
      description: t.description,
      description_en: t.description_en,
      category: t.category,
      lead_time_minutes: t.lead_time_minutes,
      required_skills: t.required_skills,
    })),
  );
  // Every treatment's rooms and variants in one statement each (not one per treatment: statements are what an
  // import spends its time on).
  const treatmentIds = venue.treatments.map((t) => t.id);
  if (treatmentIds.length === 0) return;
  await trx.deleteFrom('treatment_rooms').where('treatment_id', '=', anyUuid(treatmentIds)).execute();
  await insertRows(
    trx,
    'treatment_rooms',
    venue.treatments.flatMap((t) => t.room_ids.map((room_id) => ({ treatment_id: t.id, room_id }))),
  );
  // Defaults are cleared first so the "one default per treatment" index never sees two at once.
  await trx
    .updateTable('variants')
    .set({ is_default: false })
    .where('treatment_id', '=', anyUuid(treatmentIds))
    .execute();
  await upsertById(
    trx,
    'variants',
    venue.treatments.flatMap((t) =>
      t.variants.map((v, position) => ({
        id: v.id,
        treatment_id: t.id,
        position,
        name: v.name,
        duration_minutes: v.duration_minutes,
        price_minor: toMinor(v.price.amount, v.price.currency)!,
        currency: v.price.currency,
        is_default: v.is_default,
      })),
    ),
  );
}

/** Deletes what the file no longer lists for this venue (check-database.ts made sure nothing else needs it). */
export async function dropMissingChildren(trx: Trx, venue: Venue): Promise<void> {
  for (const t of venue.treatments)
    await deleteMissing(
      trx,
      'variants',
      'treatment_id',
      t.id,
      t.variants.map((v) => v.id),
    );
  await deleteMissing(
    trx,
    'treatments',
    'venue_id',
    venue.id,
    venue.treatments.map((t) => t.id),
  );
  await deleteMissing(
    trx,
    'rooms',
    'venue_id',
    venue.id,
    venue.rooms.map((r) => r.id),
  );
}

async function deleteMissing(
  trx: Trx,
  table: 'rooms' | 'treatments' | 'variants',
  parent: 'venue_id' | 'treatment_id',
  parentId: string,
  keep: string[],
) {
  let query = trx.deleteFrom(table).where(parent as never, '=', parentId as never);
  if (keep.length) query = query.where((eb) => eb.not(eb('id', '=', anyUuid(keep))));
  await query.execute();
}
