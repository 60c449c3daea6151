import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { cancellationFee } from '../../src/bookings/cancellation-policy.js';
import { percentOfMinor } from '../../src/lib/money.js';
import type { CancellationPolicyJson } from '../../src/db/schema.js';
import { DEFAULT_POLICY } from '../support/factories.js';

const HOUR = 3_600_000;
const START = Temporal.Instant.from('2026-12-02T16:00:00Z');
/** The default policy, with an 80% customer tier so the two sides can be told apart. */
const POLICY: CancellationPolicyJson = {
  ...DEFAULT_POLICY,
  customer: [
    { min_hours_before: 48, fee_percent: 0 },
    { min_hours_before: 0, fee_percent: 80 },
  ],
};

/** `now` given as the time left before START (negative: after the start). */
const feeAt = (left: Temporal.DurationLike, overrides: Partial<Parameters<typeof cancellationFee>[0]> = {}) =>
  cancellationFee({
    policy: POLICY,
    cancelledBy: 'partner',
    totalMinor: 9000,
    currency: 'EUR',
    startAt: START,
    now: START.subtract(left),
    ...overrides,
  });

describe('cancellationFee (the cancellation policy tiers)', () => {
  it('applies the first tier whose min_hours_before is at most the hours left', () => {
    expect(feeAt({ hours: 30 })).toEqual({
      feeMinor: 0,
      feePercent: 0,
      policy:
        'Cancelled by the partner 30 hours before the start: the tier "24 hours or more before" applies (0% fee), EUR 0.00.',
    });
    expect(feeAt({ hours: 10 })).toEqual({
      feeMinor: 4500,
      feePercent: 50,
      policy:
        'Cancelled by the partner 10 hours before the start: the tier "2 hours or more before" applies (50% fee), EUR 45.00.',
    });
    expect(feeAt({ minutes: 90 })).toEqual({
      feeMinor: 9000,
      feePercent: 100,
      policy:
        'Cancelled by the partner 1.5 hours before the start: the tier "0 hours or more before" applies (100% fee), EUR 90.00.',
    });
  });

  it('puts each boundary in the tier that starts there: exactly 24 h is free, a millisecond less is 50%', () => {
    const cases: [Temporal.DurationLike, number][] = [
      [{ hours: 24 }, 0],
      [{ milliseconds: 24 * HOUR - 1 }, 50],
      [{ hours: 23, minutes: 59, seconds: 59 }, 50],
      [{ hours: 2 }, 50],
      [{ milliseconds: 2 * HOUR - 1 }, 100],
      [{ seconds: 1 }, 100],
      [{ seconds: 0 }, 100], // at the start itself: the 0-hour tier
    ];
    for (const [left, percent] of cases) {
      expect(feeAt(left).feePercent, JSON.stringify(left)).toBe(percent);
    }
  });

  it('words the time left in minutes under an hour and in tenths of hours (rounded down) above', () => {
    expect(feeAt({ hours: 23, minutes: 59, seconds: 59 }).policy).toBe(
      'Cancelled by the partner 23.9 hours before the start: the tier "2 hours or more before" applies (50% fee), EUR 45.00.',
    );
    expect(feeAt({ minutes: 45, seconds: 30 }).policy).toBe(
      'Cancelled by the partner 45 minutes before the start: the tier "0 hours or more before" applies (100% fee), EUR 90.00.',
    );
  });

  it('says hour and minute in the singular for one', () => {
    const oneHourTier = { partner: [{ min_hours_before: 1, fee_percent: 25 }], customer: [] };
    expect(feeAt({ hours: 1 }, { policy: oneHourTier }).policy).toBe(
      'Cancelled by the partner 1 hour before the start: the tier "1 hour or more before" applies (25% fee), EUR 22.50.',
    );
    expect(feeAt({ minutes: 1 }).policy).toBe(
      'Cancelled by the partner 1 minute before the start: the tier "0 hours or more before" applies (100% fee), EUR 90.00.',
    );
  });

  it('applies the last tier after the start, whatever its min_hours_before', () => {
    expect(feeAt({ milliseconds: -1 })).toEqual({
      feeMinor: 9000,
      feePercent: 100,
      policy: 'Cancelled by the partner after the start: the last tier applies (100% fee), EUR 90.00.',
    });
    const lastIsNotZeroHours = {
      partner: [
        { min_hours_before: 48, fee_percent: 0 },
        { min_hours_before: 6, fee_percent: 40 },
      ],
      customer: [],
    };
    expect(feeAt({ hours: -3 }, { policy: lastIsNotZeroHours })).toMatchObject({ feeMinor: 3600, feePercent: 40 });
  });

  it('uses the customer tiers when the customer cancels', () => {
    expect(feeAt({ hours: 36 }, { cancelledBy: 'customer' })).toEqual({
      feeMinor: 7200,
      feePercent: 80,
      policy:
        'Cancelled by the customer 36 hours before the start: the tier "0 hours or more before" applies (80% fee), EUR 72.00.',
    });
    expect(feeAt({ hours: 48 }, { cancelledBy: 'customer' }).feeMinor).toBe(0);
  });

  it('charges nothing, and says so, when no tier applies or the tier list is empty', () => {
    const noZeroTier = {
      partner: [
        { min_hours_before: 24, fee_percent: 0 },
        { min_hours_before: 2, fee_percent: 50 },
      ],
      customer: [],
    };
    expect(feeAt({ hours: 1 }, { policy: noZeroTier })).toEqual({
      feeMinor: 0,
      feePercent: 0,
      policy:
        'Cancelled by the partner 1 hour before the start: no tier of the policy applies, so no fee is charged, EUR 0.00.',
    });
    const empty = { partner: [], customer: [] };
    for (const left of [{ hours: 30 }, { hours: 0 }, { hours: -5 }]) {
      expect(feeAt(left, { policy: empty }), JSON.stringify(left)).toMatchObject({ feeMinor: 0, feePercent: 0 });
    }
    expect(feeAt({ hours: -5 }, { policy: empty }).policy).toBe(
      'Cancelled by the partner after the start: no tier of the policy applies, so no fee is charged, EUR 0.00.',
    );
  });

  it('rounds half-up to the minor unit of the currency, cents for EUR and yen for JPY', () => {
    expect(feeAt({ hours: 10 }, { totalMinor: 9999 })).toMatchObject({ feeMinor: 5000 }); // 49.995 -> 50.00
    expect(feeAt({ hours: 10 }, { totalMinor: 9999 }).policy).toMatch(/EUR 50\.00\.$/);
    expect(feeAt({ hours: 10 }, { totalMinor: 999, currency: 'JPY' })).toEqual({
      feeMinor: 500, // 499.5 yen -> 500
      feePercent: 50,
      policy:
        'Cancelled by the partner 10 hours before the start: the tier "2 hours or more before" applies (50% fee), JPY 500.',
    });
  });
});

describe('percentOfMinor', () => {
  it('rounds exact halves up and everything else to the nearest minor unit', () => {
    const cases: [number, number, number][] = [
      [9999, 50, 5000], // 4999.5
      [9997, 50, 4999], // 4998.5 -> 4999
      [9996, 50, 4998],
      [1, 50, 1], // 0.5
      [1, 49, 0], // 0.49
      [999, 50, 500],
      [100, 12.5, 13], // 12.5
      [100, 12.49, 12],
      [3, 33.33, 1], // 0.9999
      [9000, 0, 0],
      [9000, 100, 9000],
      [0, 100, 0],
    ];
    for (const [total, percent, fee] of cases)
      expect(percentOfMinor(total, percent), `${percent}% of ${total}`).toBe(fee);
  });

  it('equals exact half-up rounding for every amount and percent in hundredths (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (total, basisPoints) => {
          const exact = (BigInt(total) * BigInt(basisPoints) * 2n + 10_000n) / 20_000n; // floor(x + 1/2)
          const fee = percentOfMinor(total, basisPoints / 100);
          expect(fee).toBe(Number(exact));
          expect(fee).toBeGreaterThanOrEqual(0);
          expect(fee).toBeLessThanOrEqual(total);
        },
      ),
    );
  });

  it('never charges less for a higher percent (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (total, a, b) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          expect(percentOfMinor(total, low / 100)).toBeLessThanOrEqual(percentOfMinor(total, high / 100));
        },
      ),
    );
  });
});
