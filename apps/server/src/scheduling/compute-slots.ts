import { Temporal } from 'temporal-polyfill';
import { anyOverlap } from './interval-index.js';
import { minutesOf, plainTimeOf } from './local-clock.js';
import type { AvailabilitySnapshot } from './snapshot.js';
import {
  capacityAt,
  type FreeResources,
  type PreparedSnapshot,
  freeResources,
  prepare,
  type VenueDay,
  venueDay,
} from './venue-day.js';

const MINUTE = 60_000;

export interface Slot {
  start: Temporal.Instant;
  end: Temporal.Instant;
  localTime: Temporal.PlainTime;
  outOfHours: boolean;
  availableCapacity: number;
}

/**
 * A listed slot. A 62-day answer holds over a thousand, so the Temporal values are made when read,
 * not for every slot (each costs microseconds in the polyfill); epoch milliseconds are kept for the edge.
 */
export class ListedSlot implements Slot {
  constructor(
    readonly startMs: number,
    readonly endMs: number,
    readonly localMinutes: number,
    readonly outOfHours: boolean,
    readonly availableCapacity: number,
  ) {}
  get start() {
    return Temporal.Instant.fromEpochMilliseconds(this.startMs);
  }
  get end() {
    return Temporal.Instant.fromEpochMilliseconds(this.endMs);
  }
  get localTime() {
    return plainTimeOf(this.localMinutes);
  }
}

export interface DaySlots {
  date: Temporal.PlainDate;
  slots: ListedSlot[];
}

/**
 * Every rule of docs/api.md, "Availability rules", over venue-local dates [from, to], one entry per date. Pure: the snapshot and `now`
 * are all it reads, so the booking transaction decides with exactly the function that lists slots.
 */
export function computeDays(
  snapshot: AvailabilitySnapshot,
  range: { from: Temporal.PlainDate; to: Temporal.PlainDate },
  now: Temporal.Instant,
  guestCount = 1,
): DaySlots[] {
  const prepared = prepare(snapshot);
  const days: DaySlots[] = [];
  for (let date = range.from; Temporal.PlainDate.compare(date, range.to) <= 0; date = date.add({ days: 1 })) {
    days.push({ date, slots: slotsOf(prepared, date, now, guestCount) });
  }
  return days;
}

/**
 * The listed slot starting exactly at `start` with what is free for it, or undefined (an instant off the grid or
 * taken is not one). Only that grid point is evaluated, with the very rules of the listing.
 */
export function slotStartingAt(
  snapshot: AvailabilitySnapshot,
  start: Temporal.Instant,
  now: Temporal.Instant,
  guestCount: number,
): { slot: ListedSlot; free: FreeResources } | undefined {
  const prepared = prepare(snapshot);
  const day = venueDay(prepared, start.toZonedDateTimeISO(snapshot.venue.timeZone).toPlainDate());
  return day ? slotAt(prepared, day, exactMs(start), now, guestCount) : undefined;
}

function slotsOf(
  prepared: PreparedSnapshot,
  date: Temporal.PlainDate,
  now: Temporal.Instant,
  guestCount: number,
): ListedSlot[] {
  const day = venueDay(prepared, date);
  if (!day) return [];
  const slots: ListedSlot[] = [];
  for (const candidate of candidates(prepared, day)) {
    const listed = evaluate(prepared, day, candidate, now, guestCount);
    if (listed) slots.push(listed);
  }
  return slots;
}

/**
 * The instant in epoch ms, or NaN when it has a part below the millisecond: such an instant is never a listed
 * slot, and rounding it to the millisecond would book an instant other than the one asked for.
 */
function exactMs(instant: Temporal.Instant): number {
  return instant.epochNanoseconds % 1_000_000n === 0n ? instant.epochMilliseconds : Number.NaN;
}

/**
 * The grid point starting at `startMs`, evaluated alone, with the rooms and therapists free for it; undefined
 * when it is not on the day's grid or not listed.
 */
function slotAt(prepared: PreparedSnapshot, day: VenueDay, startMs: number, now: Temporal.Instant, guestCount: number) {
  for (const candidate of candidates(prepared, day)) {
    if (candidate.start !== startMs) continue;
    const slot = evaluate(prepared, day, candidate, now, guestCount);
    return slot && { slot, free: freeResources(prepared, day, slot.startMs, slot.endMs) };
  }
  return undefined;
}

/** The availability rules (docs/api.md) for one candidate: hours, lead time, blocks, rooms, therapists and buffers. */
function evaluate(
  prepared: PreparedSnapshot,
  day: VenueDay,
  candidate: { localMinutes: number; start: number },
  now: Temporal.Instant,
  guestCount: number,
) {
  const { venue, variant } = prepared.snapshot;
  const { start, localMinutes } = candidate;
  const end = start + variant.durationMinutes * MINUTE;
  const inHours = start >= day.opensAt && end <= day.closesAt;
  if (!inHours && !venue.allowOutOfHoursBooking) return undefined;
  if (start < now.epochMilliseconds + variant.leadTimeMinutes * MINUTE || anyOverlap(day.blocks, start, end))
    return undefined;
  const availableCapacity = capacityAt(prepared, day, start, end);
  if (availableCapacity < Math.max(1, guestCount)) return undefined;
  return new ListedSlot(start, end, localMinutes, !inHours, availableCapacity);
}

/**
 * Grid points of the local day: from opening_time by slot_interval (and, when out-of-hours booking is allowed,
 * the same grid extended over the whole day). A local time that does not exist (DST gap) is skipped; an
 * ambiguous one is produced once, at its earlier instant (see local-clock.ts).
 */
function* candidates(prepared: PreparedSnapshot, day: VenueDay) {
  const { venue } = prepared.snapshot;
  const step = venue.slotIntervalMinutes;
  const opening = minutesOf(day.hours.opening);
  const closing = minutesOf(day.hours.closing);
  const first = venue.allowOutOfHoursBooking ? opening % step : opening;
  const last = venue.allowOutOfHoursBooking ? 24 * 60 - 1 : closing;
  for (let localMinutes = first; localMinutes <= last; localMinutes += step) {
    const start = day.clock(localMinutes);
    if (start !== null) yield { localMinutes, start };
  }
}
