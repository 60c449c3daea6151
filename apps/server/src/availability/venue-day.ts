import { Temporal } from 'temporal-polyfill';
import { anyOverlap, indexBy, type SortedIntervals } from './interval-index.js';
import { apiDayOfWeek, type DayHours, hoursOn } from './operating-hours.js';
import type { AvailabilitySnapshot, Interval, RoomReservation, RoomSnapshot, TherapistReservation } from './snapshot.js';

/** The snapshot indexed once for every day computed from it. */
export interface PreparedSnapshot {
  snapshot: AvailabilitySnapshot;
  openings: Map<string, AvailabilitySnapshot['venue']['oneTimeOpenings'][number]>;
  roomHolds: Map<string, SortedIntervals<RoomReservation>>;
  therapistHolds: Map<string, SortedIntervals<TherapistReservation>>;
  /** Rooms by capacity ascending, then id: the allocation order. */
  rooms: RoomSnapshot[];
}

export function prepare(snapshot: AvailabilitySnapshot): PreparedSnapshot {
  return {
    snapshot,
    openings: new Map(snapshot.venue.oneTimeOpenings.map((o) => [o.date.toString(), o])),
    roomHolds: indexBy(snapshot.roomReservations, (r) => r.roomId),
    therapistHolds: indexBy(snapshot.therapistReservations, (r) => r.therapistId),
    rooms: [...snapshot.rooms].sort((a, b) => a.capacity - b.capacity || a.id.localeCompare(b.id)),
  };
}

/** One operating date in venue local time: its hours, blocks and who is on shift, as instants. */
export interface VenueDay {
  date: Temporal.PlainDate;
  hours: DayHours;
  opensAt: Temporal.Instant;
  closesAt: Temporal.Instant;
  blocks: Interval[];
  shifts: Map<string, Interval[]>;
}

/** The instant of a local wall-clock time on a date ('compatible': a gap moves forward, an overlap takes the earlier). */
export function at(date: Temporal.PlainDate, time: Temporal.PlainTime, timeZone: string): Temporal.Instant {
  return date.toZonedDateTime({ timeZone, plainTime: time }).toInstant();
}

export function venueDay(prepared: PreparedSnapshot, date: Temporal.PlainDate): VenueDay | null {
  const { venue, therapists } = prepared.snapshot;
  const hours = hoursOn(venue, date, prepared.openings);
  if (!hours) return null;
  const zone = venue.timeZone;
  const local = (start: Temporal.PlainTime, end: Temporal.PlainTime): Interval => ({ start: at(date, start, zone), end: at(date, end, zone) });

  const shifts = new Map<string, Interval[]>();
  const dow = apiDayOfWeek(date);
  for (const therapist of therapists) {
    const override = therapist.overrides.find((o) => o.date.equals(date));
    const windows = override
      ? override.start && override.end ? [local(override.start, override.end)] : []
      : therapist.shifts.filter((s) => s.daysOfWeek.includes(dow)).map((s) => local(s.start, s.end));
    if (windows.length) shifts.set(therapist.id, windows);
  }
  return {
    date,
    hours,
    opensAt: at(date, hours.opening, zone),
    closesAt: at(date, hours.closing, zone),
    blocks: [...venue.dailyBlocks.map((b) => local(b.start, b.end)), ...venue.blocks],
    shifts,
  };
}

/** What is free for [start, end) on that day: rooms (allocation order) and therapists (by id). */
export function freeResources(prepared: PreparedSnapshot, day: VenueDay, start: Temporal.Instant, end: Temporal.Instant) {
  const { venue, therapists } = prepared.snapshot;
  const roomEnd = end.add({ minutes: venue.roomTurnoverBufferMinutes });
  const rooms = prepared.rooms.filter((room) => !prepared.roomHolds.get(room.id)?.any(start, roomEnd));

  const buffer = { minutes: venue.interVenueBufferMinutes };
  const wideStart = start.subtract(buffer);
  const wideEnd = end.add(buffer);
  const free: string[] = [];
  for (const therapist of therapists) {
    const windows = day.shifts.get(therapist.id);
    const onShift = windows?.some((w) => Temporal.Instant.compare(w.start, start) <= 0 && Temporal.Instant.compare(end, w.end) <= 0);
    if (!onShift || anyOverlap(therapist.absences, start, end)) continue;
    const holds = prepared.therapistHolds.get(therapist.id);
    let busy = false;
    // Holds elsewhere must keep the buffer; holds here must only not overlap.
    for (const hold of holds?.overlapping(wideStart, wideEnd) ?? []) {
      if (hold.venueId !== venue.id || (Temporal.Instant.compare(hold.start, end) < 0 && Temporal.Instant.compare(start, hold.end) < 0)) {
        busy = true;
        break;
      }
    }
    if (!busy) free.push(therapist.id);
  }
  return { rooms, therapistIds: free.sort() };
}
