import { Temporal } from 'temporal-polyfill';

/** timestamptz text from the database ("2026-12-01 09:00:00+00") as a Temporal instant. */
export function instantFromDb(text: string): Temporal.Instant {
  return Temporal.Instant.from(text);
}

/** timestamptz text from the database as the contract's ISO UTC string. */
export function isoFromDb(text: string): string {
  return Temporal.Instant.from(text).toString();
}

/** `[start, end)` as a PostgreSQL tstzrange literal. */
export function tstzrange(start: Temporal.Instant, end: Temporal.Instant): string {
  return `[${start.toString()},${end.toString()})`;
}
