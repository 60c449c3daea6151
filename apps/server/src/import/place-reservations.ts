import { sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import { isLostRace } from '../db/pg-errors.js';
import type { FieldProblem } from '../errors/domain-errors.js';
import { tstzrange } from '../lib/instant.js';
import { ImportValidationError } from './import-error.js';
import type { VenueData } from './venue-data.schema.js';
import type { Trx } from './upsert.js';

type Venue = VenueData['venues'][number];

interface Placement {
  booking: VenueData['bookings'][number];
  /** JSON path of the booking in the file. */
  at: string;
  venue: Venue;
  treatment: Venue['treatments'][number];
  start: Temporal.Instant;
  end: Temporal.Instant;
  /** Names a booking already placed: its path when it is in the file, else its id. */
  describe: (bookingId: string) => string;
  /** Therapists the booking is offered to (its own, and for a booking still waiting, every qualified one). */
  offeredTo: string[];
}

/**
 * A live imported booking holds the smallest free eligible room over [start, end + turnover buffer) and each
 * of its therapists over [start, end), under the same exclusion constraints as the API, and is offered to
 * `offeredTo`, who can then accept it. Returns the clashes as problems of the booking.
 */
export async function placeReservations(trx: Trx, p: Placement): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  const roomRange = tstzrange(p.start, p.end.add({ minutes: p.venue.room_turnover_buffer_minutes }));
  const therapistRange = tstzrange(p.start, p.end);

  const eligible = (
    p.treatment.room_ids.length ? p.venue.rooms.filter((r) => p.treatment.room_ids.includes(r.id)) : p.venue.rooms
  )
    .filter((r) => r.capacity >= p.booking.guest_count)
    .sort((a, b) => a.capacity - b.capacity);
  const taken = eligible.length
    ? await trx
        .selectFrom('room_reservations')
        .select(['room_id', 'booking_id'])
        .where(
          'room_id',
          'in',
          eligible.map((r) => r.id),
        )
        .where(sql<boolean>`during && ${roomRange}::tstzrange`)
        .execute()
    : [];
  const room = eligible.find((r) => !taken.some((t) => t.room_id === r.id));
  if (!room) {
    const holders = [...new Set(taken.map((t) => p.describe(t.booking_id)))].join(', ');
    const why = eligible.length
      ? `every eligible room is already held at that time (by ${holders})`
      : `no room of the venue eligible for this treatment has capacity ${p.booking.guest_count}`;
    problems.push({ path: p.at, message: `${p.at}: cannot place the booking at ${p.booking.start_at}: ${why}` });
  }

  const ids = p.booking.therapist_ids;
  const busy = ids.length
    ? await trx
        .selectFrom('therapist_reservations')
        .select(['therapist_id', 'booking_id'])
        .where('therapist_id', 'in', ids)
        .where(sql<boolean>`during && ${therapistRange}::tstzrange`)
        .execute()
    : [];
  for (const b of busy) {
    const path = `${p.at}.therapist_ids[${ids.indexOf(b.therapist_id)}]`;
    problems.push({
      path,
      message: `${path}: therapist ${b.therapist_id} already holds ${p.describe(b.booking_id)} at that time`,
    });
  }
  if (problems.length || !room) return problems;

  try {
    await trx
      .insertInto('room_reservations')
      .values({ booking_id: p.booking.id, room_id: room.id, during: roomRange })
      .execute();
    if (ids.length) {
      await trx
        .insertInto('therapist_reservations')
        .values(
          ids.map((therapist_id) => ({
            booking_id: p.booking.id,
            therapist_id,
            venue_id: p.venue.id,
            during: therapistRange,
          })),
        )
        .execute();
    }
    if (p.offeredTo.length) {
      await trx
        .insertInto('booking_offers')
        .values(p.offeredTo.map((therapist_id) => ({ booking_id: p.booking.id, therapist_id })))
        .onConflict((oc) => oc.columns(['booking_id', 'therapist_id']).doNothing())
        .execute();
    }
  } catch (error) {
    // A booking made through the API between our check and our insert: the transaction is lost, say whose.
    if (isLostRace(error))
      throw new ImportValidationError([
        { path: p.at, message: `${p.at}: its room or a therapist was taken at that time by a booking made meanwhile` },
      ]);
    throw error;
  }
  return problems;
}
