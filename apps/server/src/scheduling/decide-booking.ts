import type { Temporal } from 'temporal-polyfill';
import { shuffle } from '../lib/shuffle.js';
import { type ListedSlot, slotStartingAt } from './compute-slots.js';
import type { AvailabilitySnapshot } from './snapshot.js';

export interface Allocation {
  roomId: string;
  therapistIds: string[];
}

export interface BookingDecision {
  slot: ListedSlot;
  allocation: Allocation;
  /** Every qualified therapist free for the slot: those the booking is broadcast to. */
  offeredTherapistIds: string[];
}

/**
 * The booking transaction's one question: is `start` a slot computeDays would list for guestCount, and if so
 * which room and therapists take it. `random` spreads concurrent bookings of one slot over equally good rooms
 * and therapists, so they rarely collide on the exclusion constraints; without it the choice is deterministic
 * (smallest room, first ids).
 */
export function decideBooking(
  snapshot: AvailabilitySnapshot,
  start: Temporal.Instant,
  now: Temporal.Instant,
  guestCount: number,
  random?: () => number,
): BookingDecision | undefined {
  const found = slotStartingAt(snapshot, start, now, guestCount);
  if (!found) return undefined;
  const { slot, free } = found;
  const fitting = free.rooms.filter((room) => room.capacity >= guestCount);
  const smallest = fitting.filter((room) => room.capacity === fitting[0]!.capacity);
  const room = random ? smallest[Math.floor(random() * smallest.length)]! : smallest[0]!;
  const therapists = random ? shuffle(free.therapistIds, random) : free.therapistIds;
  return {
    slot,
    allocation: { roomId: room.id, therapistIds: therapists.slice(0, guestCount).sort() },
    offeredTherapistIds: free.therapistIds,
  };
}
