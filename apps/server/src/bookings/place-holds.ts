import type { Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { Database } from '../db/schema.js';
import { isLostRace } from '../db/pg-errors.js';
import { SlotUnavailableError, ValidationError } from '../errors/domain-errors.js';
import {
  type BookingDecision,
  decideBooking,
  LAST_START,
  snapshotQuery,
  type SnapshotQuery,
  type SnapshotRow,
  type SnapshotVariant,
  toSnapshot,
} from '../scheduling/index.js';
import type { VenueRow } from '../venues/venues.repository.js';
import { type Holds, lockHolds } from './bookings.repository.js';
import { holdLockKeys, holdRanges, holdsOf } from './holds.js';

/**
 * The slot a booking asks for, as every writer of a booking's holds (create and reschedule) states it: one
 * decision of the scheduling engine, the same locks, the same exclusion constraints.
 */
export interface SlotClaim {
  venue: VenueRow;
  variant: SnapshotVariant;
  startAt: Temporal.Instant;
  end: Temporal.Instant;
  guestCount: number;
  now: Temporal.Instant;
  /** Therapists to keep when each is still qualified, on shift and free (a rescheduled booking's accepted ones). */
  keepTherapistIds?: readonly string[];
  /** What to read for the decision: the venue-local day of the start, holds near the slot only. */
  query: SnapshotQuery;
}

export function slotClaim(
  venue: VenueRow,
  variant: SnapshotVariant,
  slot: { startAt: Temporal.Instant; guestCount: number; now: Temporal.Instant; keepTherapistIds?: readonly string[] },
): SlotClaim {
  const end = slot.startAt.add({ minutes: variant.durationMinutes });
  const localDate = slot.startAt.toZonedDateTimeISO(venue.timezone ?? 'UTC').toPlainDate();
  const query = snapshotQuery(venue, variant, { from: localDate, to: localDate }, { start: slot.startAt, end });
  return { ...slot, venue, variant, end, query };
}

export interface PlacedHolds<T> {
  decision: BookingDecision;
  written: T;
}

/**
 * The one writer of the slot rule, inside the caller's transaction: decide from `row` (a snapshot read in this
 * transaction, after the caller released any holds of its own, so they never count against it) with the function
 * that lists slots, lock the holds the decision takes, and have `write` place them. `write` answers undefined
 * when a therapist turned out to be held at another venue within the buffer: the slot is not available. The
 * exclusion constraints have the last word on overlaps (a lost race surfaces as an error retryLostRaces handles).
 */
export async function placeHolds<T>(
  trx: Transaction<Database>,
  claim: SlotClaim,
  row: SnapshotRow,
  write: (holds: Holds, decision: BookingDecision) => Promise<T | undefined>,
): Promise<PlacedHolds<T>> {
  const { venue, variant, startAt, end, now, guestCount } = claim;
  const decision = decideBooking(
    toSnapshot(venue, variant, row),
    startAt,
    now,
    guestCount,
    Math.random,
    claim.keepTherapistIds,
  );
  if (!decision) throw new SlotUnavailableError();
  const { roomId, therapistIds } = decision.allocation;
  const ranges = holdRanges(venue, startAt, end);
  await lockHolds(trx, holdLockKeys([roomId], therapistIds, ranges));
  const written = await write(holdsOf(roomId, therapistIds, venue, ranges), decision);
  if (written === undefined) throw new SlotUnavailableError();
  return { decision, written };
}

/** Overlap violations mean another booking won a race for the room or a therapist; a fresh look may find another. */
const ATTEMPTS = 5;

/** A transaction the database aborted for a lost race runs again on fresh data, up to ATTEMPTS times. */
export async function retryLostRaces<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isLostRace(error)) throw error;
      if (n === ATTEMPTS) throw new SlotUnavailableError();
    }
  }
}

/** A requested start as the create rules check it beyond the contract's shape: in the future, within the calendar. */
export function checkStartAt(value: string, now: Temporal.Instant): Temporal.Instant {
  const startAt = Temporal.Instant.from(value);
  if (Temporal.Instant.compare(startAt, now) <= 0)
    throw ValidationError.field('start_at', 'start_at must be in the future');
  if (Temporal.Instant.compare(startAt, LAST_START) >= 0)
    throw ValidationError.field('start_at', `start_at must be before ${LAST_START.toString()}`);
  return startAt;
}
