import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { clientTypeOf } from '../bookings/client-type.js';
import { LIVE_STATUSES } from '../lib/booking-status.js';
import type { FieldProblem } from '../errors/domain-errors.js';
import { toMinor } from '../lib/money.js';
import { therapistsAtVenue } from '../therapists/therapists.repository.js';
import { watchStatusChanges } from '../webhooks/record-event.js';
import { placeReservations } from './place-reservations.js';
import type { VenueData } from './venue-data.schema.js';
import type { Trx } from './upsert.js';

/** The columns the file decides; a re-import that changes none of them leaves the row (and updated_at) alone. */
const FILE_COLUMNS = [
  'venue_id',
  'treatment_id',
  'variant_id',
  'customer_id',
  'status',
  'start_at',
  'end_at',
  'guest_count',
  'notes',
  'external_reference',
  'external_id',
  'client_type',
  'total_price_minor',
  'currency',
  'therapist_id',
] as const;

/** The file has no cancellation record; an imported cancellation says so instead of inventing a fee. */
const IMPORTED_CANCELLATION = {
  cancelled_by: 'partner' as const,
  reason: 'Imported as cancelled',
  policy: 'Imported as cancelled; no cancellation fee was recorded.',
};

/** Removes the holds of the file's bookings, so rooms can be replaced and each booking is placed afresh. */
export async function releaseFileBookings(trx: Trx, data: VenueData): Promise<void> {
  const ids = data.bookings.map((b) => b.id);
  if (ids.length === 0) return;
  await trx.deleteFrom('room_reservations').where('booking_id', 'in', ids).execute();
  await trx.deleteFrom('therapist_reservations').where('booking_id', 'in', ids).execute();
}

/**
 * Bookings keep their status and skip availability checks (docs/api.md, "Venue data file"); a live one still holds a room and its
 * therapists (placeReservations). Returns a problem per live booking that cannot be placed.
 */
export async function upsertBookings(trx: Trx, data: VenueData, now: Temporal.Instant): Promise<FieldProblem[]> {
  const variants = new Map(
    data.venues.flatMap((v) =>
      v.treatments.flatMap((t) => t.variants.map((x) => [x.id, { venue: v, treatment: t, variant: x }] as const)),
    ),
  );
  const positions = new Map(data.bookings.map((b, i) => [b.id, i]));
  const describe = (id: string) => (positions.has(id) ? `bookings[${positions.get(id)}]` : `booking ${id}`);
  const problems: FieldProblem[] = [];
  const recordStatusChanges = await watchStatusChanges(
    trx,
    data.bookings.map((b) => b.id),
  );
  // The broadcast, as the API makes it: a booking still waiting for a therapist is offered to every therapist of
  // its organisation present at the venue with the treatment's skills (in the file or already in the database).
  const broadcast = async (
    venue: VenueData['venues'][number],
    treatment: VenueData['venues'][number]['treatments'][number],
  ) =>
    (await therapistsAtVenue(trx, venue.id))
      .filter(
        (t) =>
          t.organisation_id === venue.organisation_id &&
          treatment.required_skills.every((skill) => t.skills.includes(skill)),
      )
      .map((t) => t.id);
  for (const [index, booking] of data.bookings.entries()) {
    const { venue, treatment, variant } = variants.get(booking.variant_id)!;
    const start = Temporal.Instant.from(booking.start_at);
    const end = start.add({ minutes: variant.duration_minutes });
    const cancelled = booking.status === 'cancelled';
    const assigned = booking.status === 'confirmed' || booking.status === 'completed' || booking.status === 'no_show';
    const row = {
      id: booking.id,
      venue_id: booking.venue_id,
      treatment_id: treatment.id,
      variant_id: variant.id,
      customer_id: booking.customer_id,
      status: booking.status,
      start_at: start.toString(),
      end_at: end.toString(),
      guest_count: booking.guest_count,
      notes: booking.notes,
      external_reference: booking.external_reference,
      external_id: booking.external_id,
      client_type: clientTypeOf(booking.external_reference),
      total_price_minor: toMinor(booking.total_price.amount, booking.total_price.currency)!,
      currency: booking.total_price.currency,
      therapist_id: assigned ? (booking.therapist_ids[0] ?? null) : null,
      cancelled_at: cancelled ? now.toString() : null,
      cancelled_by: cancelled ? IMPORTED_CANCELLATION.cancelled_by : null,
      cancellation_reason: cancelled ? IMPORTED_CANCELLATION.reason : null,
      cancellation_fee_minor: cancelled ? 0 : null,
      cancellation_policy_text: cancelled ? IMPORTED_CANCELLATION.policy : null,
    };
    await trx
      .insertInto('bookings')
      .values(row)
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet((eb) => ({
            ...Object.fromEntries(FILE_COLUMNS.map((c) => [c, eb.ref(`excluded.${c}`)])),
            // A cancellation already recorded (by the API, or a first import) is kept while the file still says cancelled.
            cancelled_at: cancelled ? eb.fn.coalesce('bookings.cancelled_at', 'excluded.cancelled_at') : eb.val(null),
            cancelled_by: cancelled ? eb.fn.coalesce('bookings.cancelled_by', 'excluded.cancelled_by') : eb.val(null),
            cancellation_reason: cancelled
              ? eb.fn.coalesce('bookings.cancellation_reason', 'excluded.cancellation_reason')
              : eb.val(null),
            cancellation_fee_minor: cancelled
              ? eb.fn.coalesce('bookings.cancellation_fee_minor', 'excluded.cancellation_fee_minor')
              : eb.val(null),
            cancellation_policy_text: cancelled
              ? eb.fn.coalesce('bookings.cancellation_policy_text', 'excluded.cancellation_policy_text')
              : eb.val(null),
            updated_at: now.toString(),
          }))
          .where(
            sql<boolean>`(${sql.join(FILE_COLUMNS.map((c) => sql.ref(`bookings.${c}`)))}) is distinct from (${sql.join(FILE_COLUMNS.map((c) => sql.ref(`excluded.${c}`)))})`,
          ),
      )
      .execute();

    if (LIVE_STATUSES.includes(booking.status)) {
      const offeredTo =
        booking.status === 'confirmed'
          ? booking.therapist_ids
          : [...new Set([...booking.therapist_ids, ...(await broadcast(venue, treatment))])];
      problems.push(
        ...(await placeReservations(trx, {
          booking,
          at: `bookings[${index}]`,
          venue,
          treatment,
          start,
          end,
          describe,
          offeredTo,
        })),
      );
    }
  }
  await recordStatusChanges();
  return problems;
}
