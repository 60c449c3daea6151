import { LRUCache } from 'lru-cache';
import { Temporal } from 'temporal-polyfill';

const MINUTE = 60_000;

/**
 * Venue-local wall-clock times of one date as instants (epoch ms), by Temporal. Converting each grid point
 * through the zone costs ~18 µs in the polyfill; on a day Temporal reports no transition for, every local
 * time is midnight plus its elapsed minutes, so one conversion serves the whole day. Days with a DST
 * change convert every time through the zone: a gap's times return null, an overlap's the earlier instant.
 */
export function localClock(date: Temporal.PlainDate, timeZone: string) {
  const { uniform, midnight } = dayShape(date, timeZone);
  /** The instant of a local time (minutes since midnight) on this date; null when it does not exist (DST gap). */
  return (minutes: number): number | null => {
    if (uniform) return midnight + minutes * MINUTE;
    const time = plainTimeOf(minutes);
    const zoned = date.toZonedDateTime({ timeZone, plainTime: time });
    return zoned.toPlainTime().equals(time) ? zoned.epochMilliseconds : null;
  };
}

/**
 * Whether a date is uniform in a zone (starts at midnight, no transition before the next day) and the epoch ms of
 * its start. Asking the zone for its next transition costs ~40 µs in the polyfill and every booking and listed
 * day asks, so answers are kept: they depend only on the zone rules, which do not change while the process runs.
 */
const shapes = new LRUCache<string, { uniform: boolean; midnight: number }>({ max: 20_000 });

function dayShape(date: Temporal.PlainDate, timeZone: string) {
  const key = `${date.toString()} ${timeZone}`;
  let shape = shapes.get(key);
  if (!shape) {
    const startOfDay = date.toZonedDateTime({ timeZone });
    const nextDay = startOfDay.add({ days: 1 });
    const transition = startOfDay.getTimeZoneTransition('next');
    const uniform =
      startOfDay.hour === 0 &&
      startOfDay.minute === 0 &&
      (transition === null || Temporal.ZonedDateTime.compare(transition, nextDay) >= 0);
    shape = { uniform, midnight: startOfDay.epochMilliseconds };
    shapes.set(key, shape);
  }
  return shape;
}

/** Like localClock's answer, but a gap time moves forward ('compatible'): for opening, closing and shift edges. */
export function edgeOf(
  date: Temporal.PlainDate,
  timeZone: string,
  clock: ReturnType<typeof localClock>,
  time: Temporal.PlainTime,
): number {
  return clock(minutesOf(time)) ?? date.toZonedDateTime({ timeZone, plainTime: time }).epochMilliseconds;
}

export const minutesOf = (time: Temporal.PlainTime) => time.hour * 60 + time.minute;

export const plainTimeOf = (minutes: number) => new Temporal.PlainTime(Math.floor(minutes / 60), minutes % 60);
