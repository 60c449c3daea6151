import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { isoFromDb, isoFromEpochMs } from '../../src/lib/instant.js';

describe('isoFromEpochMs', () => {
  it('writes exactly what Temporal.Instant#toString writes, for any instant of 1970..2100', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        expect(isoFromEpochMs(ms)).toBe(Temporal.Instant.fromEpochMilliseconds(ms).toString());
      }),
      { numRuns: 2000 },
    );
  });

  it('writes whole seconds (every slot) as Temporal does, in any order of days and up to year 9999 and beyond', () => {
    const wholeSeconds = fc.integer({ min: 0, max: 260_000_000_000 }).map((s) => s * 1000);
    fc.assert(
      fc.property(fc.array(wholeSeconds, { minLength: 1, maxLength: 20 }), (instants) => {
        for (const ms of instants)
          expect(isoFromEpochMs(ms)).toBe(Temporal.Instant.fromEpochMilliseconds(ms).toString());
      }),
      { numRuns: 500 },
    );
    expect(isoFromEpochMs(Date.UTC(2026, 11, 1, 23, 59, 59))).toBe('2026-12-01T23:59:59Z');
    expect(isoFromEpochMs(Date.UTC(2026, 11, 2))).toBe('2026-12-02T00:00:00Z');
    expect(isoFromEpochMs(Date.UTC(2026, 11, 1, 23, 59, 59))).toBe('2026-12-01T23:59:59Z');
  });
});

describe('isoFromDb', () => {
  it('turns timestamptz text of a UTC session into the instant truncated to the second, as Temporal writes it', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 4_102_444_800_000_000n }), (micros) => {
        const instant = Temporal.Instant.fromEpochNanoseconds(micros * 1000n);
        // PostgreSQL's text form: a space for the T, "+00" for the Z, the fraction without trailing zeros.
        const text = instant.toString().replace('T', ' ').replace('Z', '+00');
        const seconds = instant.round({ smallestUnit: 'second', roundingMode: 'trunc' }).toString();
        expect(isoFromDb(text)).toBe(seconds);
        expect(seconds).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      }),
      { numRuns: 2000 },
    );
    expect(isoFromDb('2026-12-01 09:00:00+00')).toBe('2026-12-01T09:00:00Z');
    expect(isoFromDb('2026-12-01 09:00:00.5+00')).toBe('2026-12-01T09:00:00Z');
    expect(isoFromDb('2026-12-01 09:59:59.999999+00')).toBe('2026-12-01T09:59:59Z');
    expect(isoFromDb('2026-12-01 10:00:00.75+01')).toBe('2026-12-01T09:00:00Z'); // another offset: through Temporal
  });
});
