import { Temporal } from 'temporal-polyfill';
import type { VenueScheduleSnapshot } from './snapshot.js';

export interface DayHours {
  opening: Temporal.PlainTime;
  closing: Temporal.PlainTime;
}

/** Temporal's dayOfWeek is 1 = Monday .. 7 = Sunday; the API's days_of_week is 0 = Sunday .. 6 = Saturday. */
export const apiDayOfWeek = (date: Temporal.PlainDate) => date.dayOfWeek % 7;

/**
 * docs/api.md, "Availability rules", rule 1: the hours of a date, or null when the venue is closed.
 * A one-time opening wins over the recurring schedule for its date and may carry its own hours.
 */
export function hoursOn(
  venue: VenueScheduleSnapshot,
  date: Temporal.PlainDate,
  openings: ReadonlyMap<string, VenueScheduleSnapshot['oneTimeOpenings'][number]>,
): DayHours | null {
  const opening = openings.get(date.toString());
  if (opening)
    return { opening: opening.openingTime ?? venue.openingTime, closing: opening.closingTime ?? venue.closingTime };
  if (venue.scheduleType !== 'recurring') return null;
  if (!venue.daysOfWeek.includes(apiDayOfWeek(date))) return null;
  const start = venue.recurringStartDate;
  if (start && Temporal.PlainDate.compare(date, start) < 0) return null;
  if (venue.recurringEndDate && Temporal.PlainDate.compare(date, venue.recurringEndDate) > 0) return null;
  const every = venue.recurrenceIntervalWeeks ?? 1;
  if (every > 1 && start && weeksBetween(start, date) % every !== 0) return null;
  return { opening: venue.openingTime, closing: venue.closingTime };
}

/** Whole ISO weeks (Monday to Sunday) from the week of `from` to the week of `to`. */
function weeksBetween(from: Temporal.PlainDate, to: Temporal.PlainDate): number {
  const monday = (d: Temporal.PlainDate) => d.subtract({ days: d.dayOfWeek - 1 });
  return monday(from).until(monday(to), { largestUnit: 'day' }).days / 7;
}
