import { calendarDate, offsetInstant } from '@spa/contract';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';

const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
const year = fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0'));
const date = fc.tuple(year, two(19), two(39)).map(([y, m, d]) => `${y}-${m}-${d}`);
const offset = fc.oneof(
  fc.constant('Z'),
  fc
    .tuple(fc.constantFrom('+', '-'), two(99), fc.constantFrom(':', ''), two(99))
    .map(([sign, h, colon, m]) => `${sign}${h}${colon}${m}`),
);
const fraction = fc.oneof(fc.constant(''), fc.stringMatching(/^\.\d{1,12}$/));
const instant = fc
  .tuple(date, two(29), two(69), two(69), fraction, offset)
  .map(([d, h, m, s, f, o]) => `${d}T${h}:${m}:${s}${f}${o}`);

// Every string the contract lets through reaches Temporal (and a timestamptz) after validation: a value that
// passes and then throws a RangeError would answer 500 where the partner sent a malformed instant.
describe('instants and dates read from outside', () => {
  it('offsetInstant passes only what Temporal.Instant.from reads (fast-check)', () => {
    const schema = offsetInstant('must be an ISO 8601 instant with an offset or Z');
    fc.assert(
      fc.property(instant, (text) => {
        if (schema.safeParse(text).success) expect(() => Temporal.Instant.from(text), text).not.toThrow();
      }),
      { numRuns: 5000 },
    );
    for (const text of ['2027-01-10T10:00:00+23:59', '2027-01-10T10:00:00-2359', '2027-01-10T10:00:00.123456789Z']) {
      expect(schema.safeParse(text).success, text).toBe(true);
    }
  });

  it('calendarDate passes only what Temporal.PlainDate.from reads, from year 0001 (fast-check)', () => {
    const schema = calendarDate();
    fc.assert(
      fc.property(date, (text) => {
        if (!schema.safeParse(text).success) return;
        expect(() => Temporal.PlainDate.from(text), text).not.toThrow();
        expect(text.startsWith('0000-'), text).toBe(false);
      }),
      { numRuns: 5000 },
    );
    expect(schema.safeParse('2028-02-29').success).toBe(true);
  });
});
