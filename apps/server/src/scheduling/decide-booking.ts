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
  /** True when every therapist asked to be kept is in the allocation (none asked: false). */
  keptTherapists: boolean;
}

/**
 * The booking transaction's one question: is `start` a slot computeDays would list for guestCount, and if so
 * which room and therapists take it. `random` spreads concurrent bookings of one slot over equally good rooms
 * and therapists, so they rarely collide on the exclusion constraints; without it the choice is deterministic
 * (smallest room, first ids). `keep` (a rescheduled booking's accepted therapists) are allocated first when every
 * one of them is qualified, on shift and free for the slot; otherwise none of them is preferred.
 */
export function decideBooking(
  snapshot: AvailabilitySnapshot,
  start: Temporal.Instant,
  now: Temporal.Instant,
  guestCount: number,
  random?: () => number,
  keep: readonly string[] = [],
): BookingDecision | undefined {
  const found = slotStartingAt(snapshot, start, now, guestCount);
  if (!found) return undefined;
  const { slot, free } = found;
  const room = chooseRoom(free.rooms, guestCount, random)!;
  const keptTherapists =
    keep.length > 0 && keep.length <= guestCount && keep.every((id) => free.therapistIds.includes(id));
  const kept = keptTherapists ? keep : [];
  const others = free.therapistIds.filter((id) => !kept.includes(id));
  const therapists = random ? shuffle(others, random) : others;
  return {
    slot,
    allocation: { roomId: room.id, therapistIds: [...kept, ...therapists.slice(0, guestCount - kept.length)].sort() },
    offeredTherapistIds: free.therapistIds,
    keptTherapists,
  };
}

/**
 * The room a booking of guestCount takes among free rooms listed by ascending capacity: the smallest that fits
 * (so larger rooms stay free for larger parties), one of the equally small at random with `random`, else the
 * first. Undefined when none fits.
 */
export function chooseRoom<Room extends { capacity: number }>(
  freeRooms: readonly Room[],
  guestCount: number,
  random?: () => number,
): Room | undefined {
  const fitting = freeRooms.filter((room) => room.capacity >= guestCount);
  if (fitting.length === 0) return undefined;
  const smallest = fitting.filter((room) => room.capacity === fitting[0]!.capacity);
  return random ? smallest[Math.floor(random() * smallest.length)]! : smallest[0]!;
}
