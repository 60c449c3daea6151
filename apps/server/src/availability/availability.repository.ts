import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { Db } from '../db/connect.js';
import { instantFromDb } from '../shared/instant.js';
import type { VenueRow } from '../venues/venues.repository.js';
import type { AvailabilitySnapshot, VariantSnapshot } from './snapshot.js';

export interface SnapshotVariant extends VariantSnapshot {
  requiredSkills: string[];
}

/** The variant as the snapshot needs it, from the row of findVenueVariant. */
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

/** Holds come back as epoch milliseconds: parsing thousands of timestamp strings with Temporal was the cost. */
const startMs = sql<number>`extract(epoch from lower(during)) * 1000`.as('start');
const endMs = sql<number>`extract(epoch from upper(during)) * 1000`.as('end');
const fromMs = (ms: number) => Temporal.Instant.fromEpochMilliseconds(ms);

const time = (text: string) => Temporal.PlainTime.from(text);
const date = (text: string) => Temporal.PlainDate.from(text);

/**
 * Loads everything the slot computation needs for venue-local dates [from, to], in a handful of set-based
 * queries whatever the length of the range. Works on a transaction too (the booking re-check).
 */
export async function loadSnapshot(
  db: Db,
  venue: VenueRow,
  variant: SnapshotVariant,
  range: { from: Temporal.PlainDate; to: Temporal.PlainDate },
  around?: { start: Temporal.Instant; end: Temporal.Instant },
): Promise<AvailabilitySnapshot> {
  const timeZone = venue.timezone ?? 'UTC';
  // Holds that can touch a slot of these dates: from the inter-venue buffer before the first day starts to the
  // longest reach after the last one (a slot starting just before midnight, its turnover and buffer).
  // A booking decision passes `around` (its own slot) and reads only the holds near it.
  const reach = { minutes: variant.durationMinutes + venue.room_turnover_buffer_minutes + venue.inter_venue_buffer_minutes };
  const windowStart = (around?.start ?? range.from.toZonedDateTime({ timeZone }).toInstant()).subtract({ minutes: venue.inter_venue_buffer_minutes }).toString();
  const windowEnd = (around?.end ?? range.to.add({ days: 1 }).toZonedDateTime({ timeZone }).toInstant()).add(reach).toString();
  const window = sql`tstzrange(${windowStart}::timestamptz, ${windowEnd}::timestamptz)`;

  // Independent reads go out together: on a pool they run in parallel, on a transaction pg queues them.
  const [openings, blocks, rooms, therapists] = await Promise.all([
    db
      .selectFrom('one_time_openings')
      .select(['date', 'opening_time', 'closing_time'])
      .where('venue_id', '=', venue.id)
      .where('date', '>=', range.from.toString())
      .where('date', '<=', range.to.toString())
      .execute(),
    db
      .selectFrom('venue_blocks')
      .select(['daily', 'start_time', 'end_time', 'start_at', 'end_at'])
      .where('venue_id', '=', venue.id)
      .where((eb) => eb.or([eb('daily', '=', true), sql<boolean>`tstzrange(start_at, end_at) && ${window}`]))
      .execute(),
    eligibleRooms(db, venue.id, variant.treatmentId),
    qualifiedTherapists(db, venue, variant.requiredSkills),
  ]);
  const therapistIds = therapists.map((t) => t.id);
  const [roomReservations, [shifts, overrides, absences, therapistReservations]] = await Promise.all([
    rooms.length
      ? db
          .selectFrom('room_reservations')
          .select(['room_id', startMs, endMs])
          .where('room_id', 'in', rooms.map((r) => r.id))
          .where(sql<boolean>`during && ${window}`)
          .execute()
      : [],
    therapistIds.length ? loadTherapistTimes(db, venue.id, therapistIds, range, window) : ([[], [], [], []] as const),
  ]);

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
      blocks: blocks.filter((b) => !b.daily).map((b) => ({ start: instantFromDb(b.start_at!), end: instantFromDb(b.end_at!) })),
    },
    variant: { id: variant.id, treatmentId: variant.treatmentId, durationMinutes: variant.durationMinutes, leadTimeMinutes: variant.leadTimeMinutes },
    rooms: rooms.map((r) => ({ id: r.id, capacity: r.capacity })),
    roomReservations: roomReservations.map((r) => ({ roomId: r.room_id, start: fromMs(r.start), end: fromMs(r.end) })),
    therapists: therapistIds.map((id) => ({
      id,
      shifts: shifts.filter((s) => s.therapist_id === id).map((s) => ({ daysOfWeek: s.days_of_week, start: time(s.start_time), end: time(s.end_time) })),
      overrides: overrides.filter((o) => o.therapist_id === id).map((o) => ({
        date: date(o.date),
        start: o.start_time ? time(o.start_time) : null,
        end: o.end_time ? time(o.end_time) : null,
      })),
      absences: absences.filter((a) => a.therapist_id === id).map((a) => ({ start: instantFromDb(a.start_at), end: instantFromDb(a.end_at) })),
    })),
    therapistReservations: therapistReservations.map((r) => ({
      therapistId: r.therapist_id,
      venueId: r.venue_id,
      start: fromMs(r.start),
      end: fromMs(r.end),
    })),
  };
}

/** The rooms the treatment is limited to, or every room of the venue when it names none. */
async function eligibleRooms(db: Db, venueId: string, treatmentId: string) {
  const rooms = await db
    .selectFrom('rooms')
    .select(['rooms.id', 'rooms.capacity'])
    .where('rooms.venue_id', '=', venueId)
    .where((eb) =>
      eb.or([
        eb.not(eb.exists(eb.selectFrom('treatment_rooms').select('treatment_rooms.room_id').where('treatment_rooms.treatment_id', '=', treatmentId))),
        eb.exists(
          eb.selectFrom('treatment_rooms').select('treatment_rooms.room_id').where('treatment_rooms.treatment_id', '=', treatmentId).whereRef('treatment_rooms.room_id', '=', 'rooms.id'),
        ),
      ]),
    )
    .execute();
  return rooms;
}

/** Qualified: every required skill; present: a weekly shift or a dated override at this venue. */
async function qualifiedTherapists(db: Db, venue: { id: string; organisation_id: string }, requiredSkills: string[]) {
  return db
    .selectFrom('therapists')
    .select('id')
    .where('organisation_id', '=', venue.organisation_id)
    .where(sql<boolean>`skills @> ${sql.val(requiredSkills)}::text[]`)
    .where((eb) =>
      eb.or([
        eb.exists(eb.selectFrom('therapist_shifts').select('therapist_shifts.id').whereRef('therapist_shifts.therapist_id', '=', 'therapists.id').where('therapist_shifts.venue_id', '=', venue.id)),
        eb.exists(eb.selectFrom('therapist_shift_overrides').select('therapist_shift_overrides.date').whereRef('therapist_shift_overrides.therapist_id', '=', 'therapists.id').where('therapist_shift_overrides.venue_id', '=', venue.id)),
      ]),
    )
    .orderBy('id')
    .execute();
}

async function loadTherapistTimes(
  db: Db,
  venueId: string,
  therapistIds: string[],
  range: { from: Temporal.PlainDate; to: Temporal.PlainDate },
  window: ReturnType<typeof sql>,
) {
  return Promise.all([
    db
    .selectFrom('therapist_shifts')
    .select(['therapist_id', 'days_of_week', 'start_time', 'end_time'])
    .where('venue_id', '=', venueId)
    .where('therapist_id', 'in', therapistIds)
    .execute(),
    db
    .selectFrom('therapist_shift_overrides')
    .select(['therapist_id', 'date', 'start_time', 'end_time'])
    .where('venue_id', '=', venueId)
    .where('therapist_id', 'in', therapistIds)
    .where('date', '>=', range.from.toString())
    .where('date', '<=', range.to.toString())
    .execute(),
    db
    .selectFrom('therapist_absences')
    .select(['therapist_id', 'start_at', 'end_at'])
    .where('therapist_id', 'in', therapistIds)
    .where(sql<boolean>`tstzrange(start_at, end_at) && ${window}`)
    .execute(),
    db
    .selectFrom('therapist_reservations')
    .select(['therapist_id', 'venue_id', startMs, endMs])
    .where('therapist_id', 'in', therapistIds)
    .where(sql<boolean>`during && ${window}`)
    .execute(),
  ]);
}
