import { type Insertable, sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { clientTypeOf } from '../bookings/client-type.js';
import { anyUuid } from '../db/any-of.js';
import { LIVE_STATUSES } from '../lib/booking-status.js';
import type { FieldProblem } from '../errors/domain-errors.js';
import type { Database } from '../db/schema.js';
import { epochMsOfInstant, isoFromEpochMs } from '../lib/instant.js';
import { toMinor } from '../lib/money.js';
import { therapistsAtVenue } from '../therapists/therapists.repository.js';
import { watchStatusChanges } from '../webhooks/record-event.js';
import { placeReservations } from './place-reservations.js';
import type { VenueData } from './venue-data.schema.js';
import { batchesOf, type Trx } from './upsert.js';

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
  await trx.deleteFrom('room_reservations').where('booking_id', '=', anyUuid(ids)).execute();
  await trx.deleteFrom('therapist_reservations').where('booking_id', '=', anyUuid(ids)).execute();
}

type FileBooking = VenueData['bookings'][number];
type Placed = { venue: VenueData['venues'][number]; treatment: VenueData['venues'][number]['treatments'][number] };

/**
 * Bookings keep their status and skip availability checks (docs/api.md, "Venue data file"); a live one still holds a room and its
 * therapists (placeReservations). The rows go in statements of many bookings each, then each live booking is placed
 * in file order. Returns a problem per live booking that cannot be placed.
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
  const span = (booking: FileBooking) => {
    const start = Temporal.Instant.from(booking.start_at);
    return { start, end: start.add({ minutes: variants.get(booking.variant_id)!.variant.duration_minutes }) };
  };
  const cancelledAt = now.toString();
  const rowOf = (booking: FileBooking) => {
    const { treatment, variant } = variants.get(booking.variant_id)!;
    const startMs = epochMsOfInstant(booking.start_at);
    const cancelled = booking.status === 'cancelled';
    const assigned = booking.status === 'confirmed' || booking.status === 'completed' || booking.status === 'no_show';
    return {
      id: booking.id,
      venue_id: booking.venue_id,
      treatment_id: treatment.id,
      variant_id: variant.id,
      customer_id: booking.customer_id,
      status: booking.status,
      start_at: isoFromEpochMs(startMs),
      end_at: isoFromEpochMs(startMs + variant.duration_minutes * 60_000),
      guest_count: booking.guest_count,
      notes: booking.notes,
      external_reference: booking.external_reference,
      external_id: booking.external_id,
      client_type: clientTypeOf(booking.external_reference),
      total_price_minor: toMinor(booking.total_price.amount, booking.total_price.currency)!,
      currency: booking.total_price.currency,
      therapist_id: assigned ? (booking.therapist_ids[0] ?? null) : null,
      cancelled_at: cancelled ? cancelledAt : null,
      cancelled_by: cancelled ? IMPORTED_CANCELLATION.cancelled_by : null,
      cancellation_reason: cancelled ? IMPORTED_CANCELLATION.reason : null,
      cancellation_fee_minor: cancelled ? 0 : null,
      cancellation_policy_text: cancelled ? IMPORTED_CANCELLATION.policy : null,
    };
  };
  if (data.bookings.length) {
    const width = Object.keys(rowOf(data.bookings[0]!)).length;
    for (const batch of batchesOf(data.bookings, width)) await upsertRows(trx, batch.map(rowOf), now);
  }

  // The broadcast, as the API makes it: a booking still waiting for a therapist is offered to every therapist of
  // its organisation present at the venue with the treatment's skills (in the file or already in the database).
  // The therapists do not change while bookings are placed, so each treatment's list is read once.
  const qualified = new Map<string, Promise<string[]>>();
  const broadcast = ({ venue, treatment }: Placed) => {
    let list = qualified.get(treatment.id);
    if (!list) {
      list = therapistsAtVenue(trx, venue.id).then((therapists) =>
        therapists
          .filter(
            (t) =>
              t.organisation_id === venue.organisation_id &&
              treatment.required_skills.every((skill) => t.skills.includes(skill)),
          )
          .map((t) => t.id),
      );
      qualified.set(treatment.id, list);
    }
    return list;
  };
  for (const [index, booking] of data.bookings.entries()) {
    if (!LIVE_STATUSES.includes(booking.status)) continue;
    const placed = variants.get(booking.variant_id)!;
    const offeredTo =
      booking.status === 'confirmed'
        ? booking.therapist_ids
        : [...new Set([...booking.therapist_ids, ...(await broadcast(placed))])];
    problems.push(
      ...(await placeReservations(trx, {
        booking,
        at: `bookings[${index}]`,
        ...placed,
        ...span(booking),
        describe,
        offeredTo,
      })),
    );
  }
  await recordStatusChanges();
  return problems;
}

/** One statement for a batch of booking rows; a row equal to the file's is left alone (and its updated_at too). */
async function upsertRows(trx: Trx, rows: Insertable<Database['bookings']>[], now: Temporal.Instant): Promise<void> {
  // A cancellation already recorded (by the API, or a first import) is kept while the file still says cancelled.
  const whileCancelled = (column: string) =>
    sql<never>`case when excluded.status = 'cancelled' then coalesce(${sql.ref(`bookings.${column}`)}, ${sql.ref(`excluded.${column}`)}) end`;
  await trx
    .insertInto('bookings')
    .values(rows)
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet((eb) => ({
          ...Object.fromEntries(FILE_COLUMNS.map((c) => [c, eb.ref(`excluded.${c}`)])),
          cancelled_at: whileCancelled('cancelled_at'),
          cancelled_by: whileCancelled('cancelled_by'),
          cancellation_reason: whileCancelled('cancellation_reason'),
          cancellation_fee_minor: whileCancelled('cancellation_fee_minor'),
          cancellation_policy_text: whileCancelled('cancellation_policy_text'),
          updated_at: now.toString(),
        }))
        .where(
          sql<boolean>`(${sql.join(FILE_COLUMNS.map((c) => sql.ref(`bookings.${c}`)))}) is distinct from (${sql.join(FILE_COLUMNS.map((c) => sql.ref(`excluded.${c}`)))})`,
        ),
    )
    .execute();
}
