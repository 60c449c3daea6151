import type { Temporal } from 'temporal-polyfill';
import { anyOverlap, indexBy, type SortedSpans, type Span } from './interval-index.js';
import { edgeOf, localClock } from './local-clock.js';
import { apiDayOfWeek, type DayHours, hoursOn } from './operating-hours.js';
import type { AvailabilitySnapshot, RoomSnapshot } from './snapshot.js';

const MINUTE = 60_000;
const ms = (interval: { start: Temporal.Instant; end: Temporal.Instant }): Span => ({
  start: interval.start.epochMilliseconds,
  end: interval.end.epochMilliseconds,
});

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
    blocks: snapshot.venue.blocks.map(ms),
    roomHolds: indexBy(
      snapshot.roomReservations.map((r) => ({ ...ms(r), roomId: r.roomId })),
      (r) => r.roomId,
    ),
    therapistHolds: indexBy(
      snapshot.therapistReservations.map((r) => ({ ...ms(r), therapistId: r.therapistId, venueId: r.venueId })),
      (r) => r.therapistId,
    ),
    absences: new Map(snapshot.therapists.map((t) => [t.id, t.absences.map(ms)])),
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
    start: edgeOf(date, venue.timeZone, clock, start),
    end: edgeOf(date, venue.timeZone, clock, end),
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
    opensAt: open.start,
    closesAt: open.end,
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
  const { venue } = prepared.snapshot;
  const roomEnd = end + venue.roomTurnoverBufferMinutes * MINUTE;
  const rooms = prepared.rooms.filter((room) => !prepared.roomHolds.get(room.id)?.any(start, roomEnd));

  const buffer = venue.interVenueBufferMinutes * MINUTE;
  const therapistIds = prepared.therapistIds.filter((id) => {
    const onShift = day.shifts.get(id)?.some((w) => w.start <= start && end <= w.end);
    if (!onShift || anyOverlap(prepared.absences.get(id) ?? [], start, end)) return false;
    // A hold elsewhere must keep the inter-venue buffer; a hold here must only not overlap.
    const holds = prepared.therapistHolds.get(id)?.overlapping(start - buffer, end + buffer) ?? [];
    return !holds.some((hold) => hold.venueId !== venue.id || (hold.start < end && start < hold.end));
  });
  return { rooms, therapistIds };
}
