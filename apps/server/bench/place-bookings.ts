import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { clientTypeOf } from '../src/bookings/client-type.js';
import type { Db } from '../src/db/connect.js';
import type { Database } from '../src/db/schema.js';
import { tstzrange } from '../src/lib/instant.js';
import { type AvailabilitySnapshot, decideBooking, RoomHold, TherapistHold } from '../src/scheduling/index.js';
import type { VenueRow } from '../src/venues/venues.repository.js';

/** A variant to book, with its empty-venue snapshot over the whole range (rooms, therapists, shifts; no holds). */
export interface PlaceableVariant {
  snapshot: AvailabilitySnapshot;
  priceMinor: number;
}

type Holds = Pick<AvailabilitySnapshot, 'roomReservations' | 'therapistReservations'>;

/** Rows per INSERT: 17 booking columns x 1,000 stays under PostgreSQL's 65,535 parameters. */
const CHUNK = 1_000;

/**
 * Places up to `count` bookings at random starts on the 15-minute grid, as the booking service would, without
 * 10,000 HTTP round trips (about a minute): each start is decided by the service's own decideBooking, over a
 * snapshot of the empty venue plus the holds placed so far that day (one venue, bookings within opening hours:
 * no hold reaches another day), with the service's rules for the room range (end + turnover) and therapist range.
 * The rows createBooking writes (customer found or created by email, pending booking, room and therapist holds,
 * offers to every free qualified therapist) are then inserted in bulk in one transaction, where the exclusion
 * constraints check every hold again. Left out: the webhook outbox row of each booking, which nothing measured
 * here reads (with no endpoint, the service writes no delivery either).
 */
export async function placeBookings(
  db: Db,
  venue: VenueRow,
  variants: PlaceableVariant[],
  options: { from: Temporal.PlainDate; days: number; count: number; now: Temporal.Instant; random: () => number },
): Promise<number> {
  const { from, days, count, now, random } = options;
  const timeZone = venue.timezone ?? 'UTC';
  const holdsOfDay = Array.from({ length: days }, (): Holds => ({ roomReservations: [], therapistReservations: [] }));
  const emails = new Map<string, string>();
  const rows = {
    bookings: [] as Insertable<Database['bookings']>[],
    room_reservations: [] as Insertable<Database['room_reservations']>[],
    therapist_reservations: [] as Insertable<Database['therapist_reservations']>[],
    booking_offers: [] as Insertable<Database['booking_offers']>[],
  };
  const opening = Temporal.PlainTime.from(venue.opening_time);
  const closing = Temporal.PlainTime.from(venue.closing_time);
  const quarters = opening.until(closing).total('minutes') / 15;

  for (let tries = 0; rows.bookings.length < count && tries < count * 20; tries++) {
    const { snapshot, priceMinor } = variants[Math.floor(random() * variants.length)]!;
    const day = Math.floor(random() * days);
    const local = opening.add({ minutes: 15 * Math.floor(random() * quarters) });
    const start = from.add({ days: day }).toZonedDateTime({ timeZone, plainTime: local }).toInstant();
    const holds = holdsOfDay[day]!;
    const decision = decideBooking({ ...snapshot, ...holds }, start, now, 1, random);
    if (!decision) continue;

    const end = decision.slot.end;
    const roomEnd = end.add({ minutes: venue.room_turnover_buffer_minutes });
    // As the loader builds them from the rows, so each decision reads the day's holds without converting them.
    holds.roomReservations.push(
      new RoomHold(decision.allocation.roomId, start.epochMilliseconds, roomEnd.epochMilliseconds),
    );
    for (const therapistId of decision.allocation.therapistIds)
      holds.therapistReservations.push(
        new TherapistHold(therapistId, venue.id, start.epochMilliseconds, end.epochMilliseconds),
      );

    const email = `growth${rows.bookings.length % 500}@bench.example`;
    if (!emails.has(email)) emails.set(email, randomUUID());
    const id = randomUUID();
    rows.bookings.push({
      id,
      venue_id: venue.id,
      treatment_id: snapshot.variant.treatmentId,
      variant_id: snapshot.variant.id,
      customer_id: emails.get(email)!,
      status: 'pending',
      start_at: start.toString(),
      end_at: end.toString(),
      guest_count: 1,
      client_type: clientTypeOf(undefined),
      total_price_minor: priceMinor,
      currency: venue.currency,
      created_at: now.toString(),
      updated_at: now.toString(),
    });
    rows.room_reservations.push({
      booking_id: id,
      room_id: decision.allocation.roomId,
      during: tstzrange(start, roomEnd),
    });
    for (const therapistId of decision.allocation.therapistIds)
      rows.therapist_reservations.push({
        booking_id: id,
        therapist_id: therapistId,
        venue_id: venue.id,
        during: tstzrange(start, end),
      });
    for (const therapistId of decision.offeredTherapistIds)
      rows.booking_offers.push({ booking_id: id, therapist_id: therapistId });
  }

  await db.transaction().execute(async (trx) => {
    const customers = [...emails].map(([email, id]) => ({
      id,
      organisation_id: venue.organisation_id,
      first_name: 'Bench',
      last_name: email.split('@')[0]!,
      email,
      language: 'fr',
    }));
    for (let i = 0; i < customers.length; i += CHUNK)
      await trx
        .insertInto('customers')
        .values(customers.slice(i, i + CHUNK))
        .execute();
    for (const table of ['bookings', 'room_reservations', 'therapist_reservations', 'booking_offers'] as const) {
      const all: object[] = rows[table];
      for (let i = 0; i < all.length; i += CHUNK)
        await trx
          .insertInto(table)
          .values(all.slice(i, i + CHUNK))
          .execute();
    }
  });
  return rows.bookings.length;
}
