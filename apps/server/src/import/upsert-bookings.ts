import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { clientTypeOf } from '../bookings/client-type.js';
import { LIVE_STATUSES } from '../bookings/bookings.repository.js';
import type { FieldProblem } from '../http/domain-errors.js';
import { tstzrange } from '../shared/instant.js';
import { toMinor } from '../shared/money.js';
import type { VenueData } from './venue-data.schema.js';
import { type Trx, upsertById } from './upsert.js';

/**
 * Bookings keep their status and skip availability checks (DECISIONS), but a live one still holds a room and
 * its therapists: the importer picks a free eligible room and writes the reservations, under the same
 * exclusion constraints as the API. Returns a problem per booking that cannot be placed.
 */
export async function upsertBookings(trx: Trx, data: VenueData): Promise<FieldProblem[]> {
  const variants = new Map(data.venues.flatMap((v) => v.treatments.flatMap((t) => t.variants.map((x) => [x.id, { venue: v, treatment: t, variant: x }] as const))));
  const problems: FieldProblem[] = [];
  const ids = data.bookings.map((b) => b.id);
  if (ids.length) {
    await trx.deleteFrom('room_reservations').where('booking_id', 'in', ids).execute();
    await trx.deleteFrom('therapist_reservations').where('booking_id', 'in', ids).execute();
  }
  for (const [index, booking] of data.bookings.entries()) {
    const { venue, treatment, variant } = variants.get(booking.variant_id)!;
    const start = Temporal.Instant.from(booking.start_at);
    const end = start.add({ minutes: variant.duration_minutes });
    const live = LIVE_STATUSES.includes(booking.status);
    await upsertById(trx, 'bookings', [
      {
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
        therapist_id: booking.status === 'confirmed' || booking.status === 'completed' ? (booking.therapist_ids[0] ?? null) : null,
      },
    ]);
    if (!live) continue;

    const at = `bookings[${index}]`;
    const roomRange = tstzrange(start, end.add({ minutes: venue.room_turnover_buffer_minutes }));
    const eligible = (treatment.room_ids.length ? venue.rooms.filter((r) => treatment.room_ids.includes(r.id)) : venue.rooms).filter((r) => r.capacity >= booking.guest_count);
    const taken = eligible.length
      ? await trx.selectFrom('room_reservations').select('room_id').where('room_id', 'in', eligible.map((r) => r.id)).where(sql<boolean>`during && ${roomRange}::tstzrange`).execute()
      : [];
    const room = eligible.find((r) => !taken.some((t) => t.room_id === r.id));
    if (!room) {
      problems.push({ path: at, message: `${at}: no eligible room with capacity ${booking.guest_count} is free at ${booking.start_at}` });
      continue;
    }
    await trx.insertInto('room_reservations').values({ booking_id: booking.id, room_id: room.id, during: roomRange }).execute();

    const therapistRange = tstzrange(start, end);
    const busy = booking.therapist_ids.length
      ? await trx.selectFrom('therapist_reservations').select('therapist_id').where('therapist_id', 'in', booking.therapist_ids).where(sql<boolean>`during && ${therapistRange}::tstzrange`).execute()
      : [];
    if (busy.length) {
      problems.push({ path: `${at}.therapist_ids`, message: `${at}.therapist_ids: therapist ${busy[0]!.therapist_id} already has a booking at that time` });
      continue;
    }
    if (booking.therapist_ids.length) {
      // The tentatively assigned therapists are the ones the booking was offered to, so they can accept it.
      await trx
        .insertInto('booking_offers')
        .values(booking.therapist_ids.map((therapist_id) => ({ booking_id: booking.id, therapist_id })))
        .onConflict((oc) => oc.columns(['booking_id', 'therapist_id']).doNothing())
        .execute();
      await trx
        .insertInto('therapist_reservations')
        .values(booking.therapist_ids.map((therapist_id) => ({ booking_id: booking.id, therapist_id, venue_id: booking.venue_id, during: therapistRange })))
        .execute();
    }
  }
  return problems;
}
