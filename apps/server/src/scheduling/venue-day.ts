import type { Temporal } from 'temporal-polyfill';
import { anyOverlap, indexBy, type SortedSpans, type Span } from './interval-index.js';
import { edgeOf, localClock } from './local-clock.js';
import { apiDayOfWeek, type DayHours, hoursOn } from './operating-hours.js';
import type { AvailabilitySnapshot, Interval, RoomSnapshot } from './snapshot.js';
import { EpochInterval } from './epoch-interval.js';

const MINUTE = 60_000;
/**
 * The interval with its epoch ms. A hold read from the database carries them already and is indexed as it is
 * (copying tens of thousands of holds was most of the cost of preparing); one built with Temporal values is copied.
 */
function spanned<T extends Interval>(interval: T): T & Span {
  return interval instanceof EpochInterval
    ? interval
    : { ...interval, startMs: interval.start.epochMilliseconds, endMs: interval.end.epochMilliseconds };
}

/** The snapshot indexed once, as epoch-ms spans, for every day computed from it. */
export interface PreparedSnapshot {
  snapshot: AvailabilitySnapshot;
  openings: Map<string, AvailabilitySnapshot['venue']['oneTimeOpenings'][number]>;
  blocks: Span[];
  roomHolds: Map<string, SortedSpans<Span & { roomId: string }>>;
  therapistHolds: Map<string, SortedSpans<Span & { therapistId: string; venueId: string }>>;
  absences: Map<string, Span[]>;
  /** Rooms by capacity ascending, then id: the allocation order. */
  rooms: RoomSnapshot[];
  /** Therapists by id: the order of `freeResources`' answer. */
  therapistIds: string[];
}

export function prepare(snapshot: AvailabilitySnapshot): PreparedSnapshot {
  return {
    snapshot,
    openings: new Map(snapshot.venue.oneTimeOpenings.map((o) => [o.date.toString(), o])),
    blocks: snapshot.venue.blocks.map(spanned),
    roomHolds: indexBy(snapshot.roomReservations.map(spanned), (r) => r.roomId),
    therapistHolds: indexBy(snapshot.therapistReservations.map(spanned), (r) => r.therapistId),
    absences: new Map(snapshot.therapists.map((t) => [t.id, t.absences.map(spanned)])),
    rooms: [...snapshot.rooms].sort((a, b) => a.capacity - b.capacity || a.id.localeCompare(b.id)),
    therapistIds: snapshot.therapists.map((t) => t.id).sort(),
  };
}

/** One operating date in venue local time: its hours, blocks and who is on shift, as epoch-ms spans. */
export interface VenueDay {
  date: Temporal.PlainDate;
  hours: DayHours;
  clock: ReturnType<typeof localClock>;
  opensAt: number;
  closesAt: number;
  blocks: Span[];
  shifts: Map<string, Span[]>;
}

export function venueDay(prepared: PreparedSnapshot, date: Temporal.PlainDate): VenueDay | null {
  const { venue, therapists } = prepared.snapshot;
  const hours = hoursOn(venue, date, prepared.openings);
  if (!hours) return null;
  const clock = localClock(date, venue.timeZone);
  const local = (start: Temporal.PlainTime, end: Temporal.PlainTime): Span => ({
    startMs: edgeOf(date, venue.timeZone, clock, start),
    endMs: edgeOf(date, venue.timeZone, clock, end),
  });

  const shifts = new Map<string, Span[]>();
  const dow = apiDayOfWeek(date);
  for (const therapist of therapists) {
    const override = therapist.overrides.find((o) => o.date.equals(date));
    const windows = override
      ? override.start && override.end
        ? [local(override.start, override.end)]
        : []
      : therapist.shifts.filter((s) => s.daysOfWeek.includes(dow)).map((s) => local(s.start, s.end));
    if (windows.length) shifts.set(therapist.id, windows);
  }
  const open = local(hours.opening, hours.closing);
  return {
    date,
    hours,
    clock,
    opensAt: open.startMs,
    closesAt: open.endMs,
    blocks: [...venue.dailyBlocks.map((b) => local(b.start, b.end)), ...prepared.blocks],
    shifts,
  };
}

/** Rooms (allocation order) and therapists (by id) free for one interval. */
export interface FreeResources {
  rooms: RoomSnapshot[];
  therapistIds: string[];
}

/** What is free for [start, end) on that day. */
export function freeResources(prepared: PreparedSnapshot, day: VenueDay, start: number, end: number): FreeResources {
  const roomEnd = end + prepared.snapshot.venue.roomTurnoverBufferMinutes * MINUTE;
  return {
    rooms: prepared.rooms.filter((room) => roomFree(prepared, room, start, roomEnd)),
    therapistIds: prepared.therapistIds.filter((id) => therapistFree(prepared, day, id, start, end)),
  };
}

/**
 * The capacity freeResources implies for [start, end): the largest free room's, capped by the number of free
 * therapists. Listing a slot needs only this number, so rooms are tried largest first until one is free and
 * therapists are counted only up to that capacity: a slot costs a few checks, not one per room and therapist.
 */
export function capacityAt(prepared: PreparedSnapshot, day: VenueDay, start: number, end: number): number {
  const roomEnd = end + prepared.snapshot.venue.roomTurnoverBufferMinutes * MINUTE;
  let largestRoom = 0;
  for (let i = prepared.rooms.length - 1; i >= 0; i--) {
    const room = prepared.rooms[i]!;
    if (roomFree(prepared, room, start, roomEnd)) {
      largestRoom = Math.max(0, room.capacity);
      break;
    }
  }
  let therapists = 0;
  for (const id of prepared.therapistIds) {
    if (therapists >= largestRoom) break;
    if (therapistFree(prepared, day, id, start, end)) therapists++;
  }
  return Math.min(largestRoom, therapists);
}

/** A room's holds already include their turnover; `roomEnd` adds the slot's own. */
function roomFree(prepared: PreparedSnapshot, room: RoomSnapshot, start: number, roomEnd: number): boolean {
  return !prepared.roomHolds.get(room.id)?.any(start, roomEnd);
}

function therapistFree(prepared: PreparedSnapshot, day: VenueDay, id: string, start: number, end: number): boolean {
  const { venue } = prepared.snapshot;
  const onShift = day.shifts.get(id)?.some((w) => w.startMs <= start && end <= w.endMs);
  if (!onShift || anyOverlap(prepared.absences.get(id) ?? [], start, end)) return false;
  // A hold elsewhere must keep the inter-venue buffer; a hold here must only not overlap.
  const buffer = venue.interVenueBufferMinutes * MINUTE;
  const holds = prepared.therapistHolds.get(id);
  return !holds?.some(
    start - buffer,
    end + buffer,
    (hold) => hold.venueId !== venue.id || (hold.startMs < end && start < hold.endMs),
  );
}
