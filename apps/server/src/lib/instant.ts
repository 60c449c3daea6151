import { Temporal } from 'temporal-polyfill';

/** timestamptz text from the database ("2026-12-01 09:00:00+00") as a Temporal instant. */
export function instantFromDb(text: string): Temporal.Instant {
  return Temporal.Instant.from(text);
}

/** What every session (set to UTC) writes for a timestamptz: "2026-12-01 09:00:00+00", maybe with a fraction. */
const UTC_TIMESTAMPTZ = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.\d*)?\+00$/;

/**
 * timestamptz text from the database as the API writes every instant: UTC to the second, `YYYY-MM-DDTHH:mm:ssZ`
 * (the fraction is dropped, so a clock never reads later than it was). The usual UTC form is rewritten directly
 * (parsing it with Temporal and printing it again cost ~35 µs per field); anything else goes through Temporal.
 * Checked against Temporal's answer in test/availability/slot-mapper.test.ts.
 */
export function isoFromDb(text: string): string {
  const m = UTC_TIMESTAMPTZ.exec(text);
  if (!m) return isoSeconds(Temporal.Instant.from(text));
  return `${m[1]}T${m[2]}Z`;
}

/** An instant as the API writes it: UTC, to the second (truncated). */
export function isoSeconds(instant: Temporal.Instant): string {
  return instant.round({ smallestUnit: 'second', roundingMode: 'trunc' }).toString();
}

/** `[start, end)` as a PostgreSQL tstzrange literal. */
export function tstzrange(start: Temporal.Instant, end: Temporal.Instant): string {
  return `[${isoFromEpochMs(start.epochMilliseconds)},${isoFromEpochMs(end.epochMilliseconds)})`;
}

const DAY_MS = 86_400_000;
/** Years 0000–9999: Date#toISOString writes them with four digits, as Temporal does. */
const LAST_FOUR_DIGIT_MS = 253_402_300_800_000;
/** "00" to "59", for hours, minutes and seconds. */
export const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
/** The last UTC day formatted, and its "YYYY-MM-DDT": the slots of an answer come day by day. */
let cachedDayMs = Number.NaN;
let cachedDayPrefix = '';

/**
 * An epoch-ms instant as the ISO UTC string Temporal writes ("2026-12-01T09:00:00Z"). Formatting in UTC
 * needs no zone rules, and the polyfill's Instant#toString costs ~17 µs, which a 62-day answer pays
 * thousands of times. Whole seconds (every slot) are written from the day's cached date and two-digit
 * strings: Date#toISOString and the regular expression cost ~1.7 µs each, 20 ms over a ~1 MB answer.
 * The result is checked equal to Temporal's in test/availability/slot-mapper.test.ts.
 */
export function isoFromEpochMs(epochMs: number): string {
  if (epochMs % 1000 !== 0 || epochMs < 0 || epochMs >= LAST_FOUR_DIGIT_MS) {
    // Temporal drops trailing zeros of the fraction, and the fraction itself when it is zero.
    return new Date(epochMs)
      .toISOString()
      .replace(/\.(\d*?)0*Z$/, (_, digits: string) => (digits ? `.${digits}Z` : 'Z'));
  }
  const inDay = epochMs % DAY_MS;
  const dayMs = epochMs - inDay;
  if (dayMs !== cachedDayMs) {
    cachedDayPrefix = new Date(dayMs).toISOString().slice(0, 11);
    cachedDayMs = dayMs;
  }
  const seconds = inDay / 1000;
  return `${cachedDayPrefix}${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}Z`;
}

/** The common form of an ISO 8601 instant with an offset, to the millisecond, every field in range. */
const PLAIN_INSTANT =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{3})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/**
 * An ISO 8601 instant with an offset as epoch milliseconds. The common form goes through Date.parse (~1 µs; the
 * polyfill's Instant.from costs ~60 µs, which an import of 100,000 bookings pays twice per row); a day past the
 * end of its month (which Date.parse rolls over) and every other form go through Temporal. Checked against
 * Temporal's answer in test/import/import-at-scale.test.ts.
 */
export function epochMsOfInstant(text: string): number {
  const m = PLAIN_INSTANT.exec(text);
  if (m) {
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day) return Date.parse(text);
  }
  return Temporal.Instant.from(text).epochMilliseconds;
}
