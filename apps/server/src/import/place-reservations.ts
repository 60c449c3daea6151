import type { Temporal } from 'temporal-polyfill';
import { insertHolds, lockHolds, roomHoldsDuring, therapistClashes } from '../bookings/bookings.repository.js';
import { holdLockKeys, holdRanges, holdsOf, therapistHoldsOf } from '../bookings/holds.js';
import { isLostRace } from '../db/pg-errors.js';
import type { FieldProblem } from '../errors/domain-errors.js';
import { tstzrange } from '../lib/instant.js';
import { chooseRoom } from '../scheduling/index.js';
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
 * A live imported booking holds a room and its therapists through the booking write path's own code: the same
 * ranges (turnover and inter-venue buffers, bookings/holds.ts), the same hold locks, the same room choice (the
 * smallest free eligible room), the same guarded insert and exclusion constraints. Only the availability rules
 * (hours, shifts, lead time) are skipped, as docs/api.md says of the venue data file. Returns the clashes as
 * problems of the booking, with their JSON paths.
 */
export async function placeReservations(trx: Trx, p: Placement): Promise<FieldProblem[]> {
  try {
    return await place(trx, p);
  } catch (error) {
    // The database settled a race with a concurrent API booking against us (an overlap the locks did not cover,
    // or a deadlock between our successive locks and its): the import is lost, say where.
    if (isLostRace(error)) throw lostToMeanwhile(p.at);
    throw error;
  }
}

/** A venue data file's bookings are live: test data is made through test keys only. */
const LIVE = true;

async function place(trx: Trx, p: Placement): Promise<FieldProblem[]> {
  const ranges = holdRanges(p.venue, p.start, p.end);
  const ids = p.booking.therapist_ids;
  const eligible = (
    p.treatment.room_ids.length ? p.venue.rooms.filter((r) => p.treatment.room_ids.includes(r.id)) : p.venue.rooms
  )
    .filter((r) => r.capacity >= p.booking.guest_count)
    .sort((a, b) => a.capacity - b.capacity);
  // The room is not chosen yet: lock every room it may take, so the reads below see every booking that could
  // collide (an API booking waits on these locks, and we on its).
  await lockHolds(
    trx,
    holdLockKeys(
      eligible.map((r) => r.id),
      ids,
      ranges,
    ),
  );

  const problems: FieldProblem[] = [];
  const taken = await roomHoldsDuring(
    trx,
    eligible.map((r) => r.id),
    LIVE,
    tstzrange(ranges.room.start, ranges.room.end),
  );
  const room = chooseRoom(
    eligible.filter((r) => !taken.some((t) => t.room_id === r.id)),
    p.booking.guest_count,
  );
  if (!room) {
    const holders = [...new Set(taken.map((t) => p.describe(t.booking_id)))].join(', ');
    const why = eligible.length
      ? `every eligible room is already held at that time (by ${holders})`
      : `no room of the venue eligible for this treatment has capacity ${p.booking.guest_count}`;
    problems.push({ path: p.at, message: `${p.at}: cannot place the booking at ${p.booking.start_at}: ${why}` });
  }

  for (const clash of await therapistClashes(trx, therapistHoldsOf(ids, p.venue, ranges, LIVE), p.venue.id)) {
    const path = `${p.at}.therapist_ids[${ids.indexOf(clash.therapist_id)}]`;
    const when = clash.elsewhere
      ? `at another venue within the inter-venue buffer of ${p.venue.inter_venue_buffer_minutes} minutes`
      : 'at that time';
    problems.push({
      path,
      message: `${path}: therapist ${clash.therapist_id} already holds ${p.describe(clash.booking_id)} ${when}`,
    });
  }
  if (problems.length || !room) return problems;

  const holds = holdsOf(room.id, ids, p.venue, ranges, LIVE);
  const placed = await insertHolds(trx, { id: p.booking.id, venueId: p.venue.id }, holds);
  if (placed === 'therapist_busy_elsewhere') throw lostToMeanwhile(p.at);
  if (p.offeredTo.length) {
    await trx
      .insertInto('booking_offers')
      .values(p.offeredTo.map((therapist_id) => ({ booking_id: p.booking.id, therapist_id })))
      .onConflict((oc) => oc.columns(['booking_id', 'therapist_id']).doNothing())
      .execute();
  }
  return problems;
}

function lostToMeanwhile(at: string) {
  return new ImportValidationError([
    { path: at, message: `${at}: its room or a therapist was taken at that time by a booking made meanwhile` },
  ]);
}
