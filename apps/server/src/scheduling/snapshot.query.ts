import { sql } from 'kysely';
import type { Db } from '../db/connect.js';

/** One row of JSON arrays: everything a snapshot needs, in a single round trip (pool or transaction alike). */
export interface SnapshotRow {
  openings: { date: string; opening_time: string | null; closing_time: string | null }[];
  blocks: {
    daily: boolean;
    start_time: string | null;
    end_time: string | null;
    start_ms: number | null;
    end_ms: number | null;
  }[];
  rooms: { id: string; capacity: number }[];
  /** Per room, its holds sorted by start: starts and ends as parallel arrays. */
  room_holds: { room_id: string; start_ms: number[]; end_ms: number[] }[];
  therapist_ids: string[];
  shifts: { therapist_id: string; days_of_week: number[]; start_time: string; end_time: string }[];
  overrides: { therapist_id: string; date: string; start_time: string | null; end_time: string | null }[];
  absences: { therapist_id: string; start_ms: number; end_ms: number }[];
  /** Per therapist and venue, its holds sorted by start, as room_holds. */
  therapist_holds: { therapist_id: string; venue_id: string; start_ms: number[]; end_ms: number[] }[];
}

export interface SnapshotQuery {
  venueId: string;
  organisationId: string;
  treatmentId: string;
  requiredSkills: string[];
  /** Holds of this mode's bookings only: a test booking never takes a live slot, nor the reverse. */
  livemode: boolean;
  from: string;
  to: string;
  /** Holds overlapping [windowStart, windowEnd) are read; ISO instants. */
  windowStart: string;
  windowEnd: string;
}

/**
 * Eligible rooms (the treatment's, or every room of the venue when it names none) and qualified therapists
 * (every required skill, a shift or an override at this venue), with their holds in the window.
 * Instants come back as epoch milliseconds: parsing thousands of timestamp strings was the cost. Holds come
 * grouped by room or therapist as parallel arrays of starts and ends, each sorted by start (no two holds of one
 * resource share a start: the exclusion constraints): one JSON object per hold made building and parsing the
 * answer cost twice as much for a large venue's 62 days (tens of thousands of holds).
 */
export async function selectSnapshotRow(db: Db, q: SnapshotQuery): Promise<SnapshotRow> {
  const { rows } = await snapshotSql(q).execute(db);
  return rows[0]!;
}

/** The statement of selectSnapshotRow, for a caller that reads more in the same round trip. */
export function snapshotSql(q: SnapshotQuery) {
  return sql<SnapshotRow>`
    with w as (select tstzrange(${q.windowStart}::timestamptz, ${q.windowEnd}::timestamptz) as r),
    eligible_rooms as (
      select r.id, r.capacity from rooms r
      where r.venue_id = ${q.venueId}
        and (not exists (select 1 from treatment_rooms tr where tr.treatment_id = ${q.treatmentId})
             or exists (select 1 from treatment_rooms tr where tr.treatment_id = ${q.treatmentId} and tr.room_id = r.id))
    ),
    qualified as (
      select t.id from therapists t
      where t.organisation_id = ${q.organisationId} and t.skills @> ${q.requiredSkills}::text[]
        and (exists (select 1 from therapist_shifts s where s.therapist_id = t.id and s.venue_id = ${q.venueId})
             or exists (select 1 from therapist_shift_overrides o where o.therapist_id = t.id and o.venue_id = ${q.venueId}))
    )
    select
      (select coalesce(json_agg(json_build_object('date', o.date, 'opening_time', o.opening_time, 'closing_time', o.closing_time)), '[]')
         from one_time_openings o where o.venue_id = ${q.venueId} and o.date between ${q.from}::date and ${q.to}::date) as openings,
      (select coalesce(json_agg(json_build_object('daily', b.daily, 'start_time', b.start_time, 'end_time', b.end_time,
                'start_ms', extract(epoch from b.start_at) * 1000, 'end_ms', extract(epoch from b.end_at) * 1000)), '[]')
         from venue_blocks b, w where b.venue_id = ${q.venueId} and (b.daily or tstzrange(b.start_at, b.end_at) && w.r)) as blocks,
      (select coalesce(json_agg(json_build_object('id', e.id, 'capacity', e.capacity) order by e.id), '[]') from eligible_rooms e) as rooms,
      (select coalesce(json_agg(json_build_object('room_id', g.room_id, 'start_ms', g.starts, 'end_ms', g.ends)), '[]')
         from (select h.room_id,
                      json_agg(extract(epoch from lower(h.during)) * 1000 order by lower(h.during)) as starts,
                      json_agg(extract(epoch from upper(h.during)) * 1000 order by lower(h.during)) as ends
                 from room_reservations h, w where h.room_id in (select id from eligible_rooms) and h.livemode = ${q.livemode} and h.during && w.r
                 group by h.room_id) g) as room_holds,
      (select coalesce(json_agg(q.id order by q.id), '[]') from qualified q) as therapist_ids,
      (select coalesce(json_agg(json_build_object('therapist_id', s.therapist_id, 'days_of_week', s.days_of_week,
                'start_time', s.start_time, 'end_time', s.end_time)), '[]')
         from therapist_shifts s where s.venue_id = ${q.venueId} and s.therapist_id in (select id from qualified)) as shifts,
      (select coalesce(json_agg(json_build_object('therapist_id', o.therapist_id, 'date', o.date,
                'start_time', o.start_time, 'end_time', o.end_time)), '[]')
         from therapist_shift_overrides o
         where o.venue_id = ${q.venueId} and o.therapist_id in (select id from qualified) and o.date between ${q.from}::date and ${q.to}::date) as overrides,
      (select coalesce(json_agg(json_build_object('therapist_id', a.therapist_id,
                'start_ms', extract(epoch from a.start_at) * 1000, 'end_ms', extract(epoch from a.end_at) * 1000)), '[]')
         from therapist_absences a, w where a.therapist_id in (select id from qualified) and tstzrange(a.start_at, a.end_at) && w.r) as absences,
      (select coalesce(json_agg(json_build_object('therapist_id', g.therapist_id, 'venue_id', g.venue_id,
                'start_ms', g.starts, 'end_ms', g.ends)), '[]')
         from (select h.therapist_id, h.venue_id,
                      json_agg(extract(epoch from lower(h.during)) * 1000 order by lower(h.during)) as starts,
                      json_agg(extract(epoch from upper(h.during)) * 1000 order by lower(h.during)) as ends
                 from therapist_reservations h, w where h.therapist_id in (select id from qualified) and h.livemode = ${q.livemode} and h.during && w.r
                 group by h.therapist_id, h.venue_id) g) as therapist_holds
  `;
}
