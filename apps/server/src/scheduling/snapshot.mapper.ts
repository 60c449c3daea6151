import { LRUCache } from 'lru-cache';
import { Temporal } from 'temporal-polyfill';
import type { VenueRow } from '../venues/venues.repository.js';
import type { AvailabilitySnapshot, VariantSnapshot } from './snapshot.js';
import { RoomHold, TherapistHold } from './epoch-interval.js';
import type { SnapshotRow } from './snapshot.query.js';

// No database code here (nor in what it imports): the availability worker threads map rows with it, and loading
// kysely would double their start-up.

export interface SnapshotVariant extends VariantSnapshot {
  requiredSkills: string[];
}

/** The variant as the snapshot needs it, from a variant row joined with its treatment's required skills. */
export function toSnapshotVariant(variant: {
  id: string;
  treatment_id: string;
  duration_minutes: number;
  lead_time_minutes: number;
  required_skills: string[];
}): SnapshotVariant {
  return {
    id: variant.id,
    treatmentId: variant.treatment_id,
    durationMinutes: variant.duration_minutes,
    leadTimeMinutes: variant.lead_time_minutes,
    requiredSkills: variant.required_skills,
  };
}

const fromMs = (ms: number) => Temporal.Instant.fromEpochMilliseconds(ms);

/**
 * Times and dates of the snapshot, parsed once: every booking's snapshot repeats the same shift times and
 * dates, and parsing costs microseconds in the polyfill. Temporal values are immutable, so sharing is safe.
 */
const parsed = new LRUCache<string, Temporal.PlainTime | Temporal.PlainDate>({ max: 10_000 });
const memo = <T extends Temporal.PlainTime | Temporal.PlainDate>(
  kind: string,
  text: string,
  parse: (text: string) => T,
): T => {
  const key = kind + text;
  let value = parsed.get(key) as T | undefined;
  if (!value) parsed.set(key, (value = parse(text)));
  return value;
};
const time = (text: string) => memo('t', text, (t) => Temporal.PlainTime.from(t));
const date = (text: string) => memo('d', text, (d) => Temporal.PlainDate.from(d));

/** The snapshot of a row of selectSnapshotRow: times and dates as Temporal values, instants from epoch ms. */
export function toSnapshot(venue: VenueRow, variant: SnapshotVariant, row: SnapshotRow): AvailabilitySnapshot {
  const timeZone = venue.timezone ?? 'UTC';
  const { openings, blocks, rooms } = row;
  const shifts = byTherapist(row.shifts);
  const overrides = byTherapist(row.overrides);
  const absences = byTherapist(row.absences);

  return {
    venue: {
      id: venue.id,
      timeZone,
      openingTime: time(venue.opening_time),
      closingTime: time(venue.closing_time),
      slotIntervalMinutes: venue.slot_interval,
      scheduleType: venue.schedule_type,
      daysOfWeek: venue.days_of_week,
      recurrenceIntervalWeeks: venue.recurrence_interval,
      recurringStartDate: venue.recurring_start_date ? date(venue.recurring_start_date) : null,
      recurringEndDate: venue.recurring_end_date ? date(venue.recurring_end_date) : null,
      oneTimeOpenings: openings.map((o) => ({
        date: date(o.date),
        openingTime: o.opening_time ? time(o.opening_time) : null,
        closingTime: o.closing_time ? time(o.closing_time) : null,
      })),
      allowOutOfHoursBooking: venue.allow_out_of_hours_booking,
      roomTurnoverBufferMinutes: venue.room_turnover_buffer_minutes,
      interVenueBufferMinutes: venue.inter_venue_buffer_minutes,
      dailyBlocks: blocks.filter((b) => b.daily).map((b) => ({ start: time(b.start_time!), end: time(b.end_time!) })),
      blocks: blocks.filter((b) => !b.daily).map((b) => ({ start: fromMs(b.start_ms!), end: fromMs(b.end_ms!) })),
    },
    variant: {
      id: variant.id,
      treatmentId: variant.treatmentId,
      durationMinutes: variant.durationMinutes,
      leadTimeMinutes: variant.leadTimeMinutes,
    },
    rooms,
    roomReservations: unroll(row.room_holds, (g, start, end) => new RoomHold(g.room_id, start, end)),
    therapists: row.therapist_ids.map((id) => ({
      id,
      shifts: (shifts.get(id) ?? []).map((s) => ({
        daysOfWeek: s.days_of_week,
        start: time(s.start_time),
        end: time(s.end_time),
      })),
      overrides: (overrides.get(id) ?? []).map((o) => ({
        date: date(o.date),
        start: o.start_time ? time(o.start_time) : null,
        end: o.end_time ? time(o.end_time) : null,
      })),
      absences: (absences.get(id) ?? []).map((a) => ({ start: fromMs(a.start_ms), end: fromMs(a.end_ms) })),
    })),
    therapistReservations: unroll(
      row.therapist_holds,
      (g, start, end) => new TherapistHold(g.therapist_id, g.venue_id, start, end),
    ),
  };
}

/** One hold per start of each group (the query's parallel arrays of starts and ends). */
function unroll<G extends { start_ms: number[]; end_ms: number[] }, H>(
  groups: G[],
  hold: (group: G, startMs: number, endMs: number) => H,
): H[] {
  const holds: H[] = [];
  for (const group of groups)
    for (let i = 0; i < group.start_ms.length; i++) holds.push(hold(group, group.start_ms[i]!, group.end_ms[i]!));
  return holds;
}

/** Rows grouped by therapist in one pass, in their order: filtering the rows once per therapist grew as their square. */
function byTherapist<T extends { therapist_id: string }>(rows: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.therapist_id);
    if (group) group.push(row);
    else groups.set(row.therapist_id, [row]);
  }
  return groups;
}
