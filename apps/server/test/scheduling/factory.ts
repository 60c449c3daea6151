import { Temporal } from 'temporal-polyfill';
import { EVERY_DAY } from '../support/calendar.js';
import type { AvailabilitySnapshot, TherapistSnapshot, VenueScheduleSnapshot } from '../../src/scheduling/index.js';

export const t = (text: string) => Temporal.PlainTime.from(text);
export const d = (text: string) => Temporal.PlainDate.from(text);
export const i = (text: string) => Temporal.Instant.from(text);
export { EVERY_DAY } from '../support/calendar.js';

export function therapistSnapshot(id: string, overrides: Partial<TherapistSnapshot> = {}): TherapistSnapshot {
  return {
    id,
    shifts: [{ daysOfWeek: EVERY_DAY, start: t('00:00'), end: t('23:59') }],
    overrides: [],
    absences: [],
    ...overrides,
  };
}

/**
 * A UTC venue open 09:00–12:00 every day on a 30-minute grid, one room of capacity 1, one therapist on shift
 * all day, a 60-minute variant with no lead time. Tests override what they are about.
 */
export function makeSnapshot(
  overrides: { venue?: Partial<VenueScheduleSnapshot> } & Partial<Omit<AvailabilitySnapshot, 'venue'>> = {},
): AvailabilitySnapshot {
  const { venue, ...rest } = overrides;
  return {
    venue: {
      id: 'venue-1',
      timeZone: 'UTC',
      openingTime: t('09:00'),
      closingTime: t('12:00'),
      slotIntervalMinutes: 30,
      scheduleType: 'recurring',
      daysOfWeek: EVERY_DAY,
      recurrenceIntervalWeeks: 1,
      recurringStartDate: d('2026-01-01'),
      recurringEndDate: null,
      oneTimeOpenings: [],
      allowOutOfHoursBooking: false,
      roomTurnoverBufferMinutes: 0,
      interVenueBufferMinutes: 0,
      dailyBlocks: [],
      blocks: [],
      ...venue,
    },
    variant: { id: 'variant-1', treatmentId: 'treatment-1', durationMinutes: 60, leadTimeMinutes: 0 },
    rooms: [{ id: 'room-1', capacity: 1 }],
    roomReservations: [],
    therapists: [therapistSnapshot('therapist-1')],
    therapistReservations: [],
    ...rest,
  };
}

export const NOW = i('2026-11-01T00:00:00Z');
