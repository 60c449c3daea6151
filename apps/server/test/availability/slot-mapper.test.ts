import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { isoFromEpochMs } from '../../src/shared/instant.js';

describe('isoFromEpochMs', () => {
  it('writes exactly what Temporal.Instant#toString writes, for any instant of 1970..2100', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        expect(isoFromEpochMs(ms)).toBe(Temporal.Instant.fromEpochMilliseconds(ms).toString());
      }),
      { numRuns: 2000 },
    );
  });
});
