import type { Temporal } from 'temporal-polyfill';

/**
 * Everything the slot computation needs, loaded once per request (or once per booking transaction)
 * by snapshot.loader.ts. Pure data: no I/O happens after this is built.
 */
export interface AvailabilitySnapshot {
  venue: VenueScheduleSnapshot;
  variant: VariantSnapshot;
  /** Rooms the treatment may use (all rooms of the venue when the treatment names none). */
  rooms: RoomSnapshot[];
  /** Live room reservations of those rooms: [start, end + turnover) as stored at booking time. */
  roomReservations: RoomReservation[];
  /** Therapists qualified for the treatment (every required skill) with a shift pattern at this venue. */
  therapists: TherapistSnapshot[];
  /** Live reservations of those therapists, at this venue and at every other venue. */
  therapistReservations: TherapistReservation[];
}

export interface Interval {
  start: Temporal.Instant;
  end: Temporal.Instant;
}

export interface VenueScheduleSnapshot {
  id: string;
  /** IANA zone; 'UTC' when the venue has none. */
  timeZone: string;
  openingTime: Temporal.PlainTime;
  closingTime: Temporal.PlainTime;
  slotIntervalMinutes: number;
  scheduleType: 'recurring' | 'one_time';
  /** 0 = Sunday .. 6 = Saturday. */
  daysOfWeek: number[];
  /** Weeks between operating weeks, counted from the week of recurringStartDate; null means every week. */
  recurrenceIntervalWeeks: number | null;
  recurringStartDate: Temporal.PlainDate | null;
  recurringEndDate: Temporal.PlainDate | null;
  oneTimeOpenings: OneTimeOpening[];
  allowOutOfHoursBooking: boolean;
  roomTurnoverBufferMinutes: number;
  interVenueBufferMinutes: number;
  /** Blocks repeated every operating day, in venue local time. */
  dailyBlocks: { start: Temporal.PlainTime; end: Temporal.PlainTime }[];
  /** One-off blocks as absolute ranges. */
  blocks: Interval[];
}

export interface OneTimeOpening {
  date: Temporal.PlainDate;
  /** Own hours of that day; null means the venue's usual hours. */
  openingTime: Temporal.PlainTime | null;
  closingTime: Temporal.PlainTime | null;
}

export interface VariantSnapshot {
  id: string;
  treatmentId: string;
  durationMinutes: number;
  leadTimeMinutes: number;
}

export interface RoomSnapshot {
  id: string;
  capacity: number;
}

export interface TherapistSnapshot {
  id: string;
  /** Weekly pattern at this venue, venue local time. */
  shifts: { daysOfWeek: number[]; start: Temporal.PlainTime; end: Temporal.PlainTime }[];
  /** Dated overrides at this venue: times replace the weekly pattern that day; null times mean off. */
  overrides: { date: Temporal.PlainDate; start: Temporal.PlainTime | null; end: Temporal.PlainTime | null }[];
  absences: Interval[];
}

export interface RoomReservation extends Interval {
  roomId: string;
}

export interface TherapistReservation extends Interval {
  therapistId: string;
  venueId: string;
}
