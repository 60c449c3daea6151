import { describe, expect, it } from 'vitest';
import { periodOf } from '../../src/availability/availability-period.js';
import { ValidationError } from '../../src/errors/domain-errors.js';

/** periodOf keeps the periods it checked (src/availability/availability-period.ts): same answers, shared and frozen. */
describe('the period of an availability query', () => {
  it('gives the same frozen period for the same dates, and the dates as the answer names them', () => {
    const first = periodOf({ date: '2026-12-03' });
    expect(periodOf({ date: '2026-12-03' })).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first.dates).toEqual({ mode: 'day', from: '2026-12-03', to: '2026-12-03' });
    expect(first.from.toString()).toBe('2026-12-03');
    const range = periodOf({ from: '2026-12-01', to: '2026-12-31' });
    expect(range.dates).toEqual({ mode: 'range', from: '2026-12-01', to: '2026-12-31' });
    expect(range.to.toString()).toBe('2026-12-31');
    expect(periodOf({ from: '2026-12-01', to: '2026-12-30' })).not.toBe(range);
  });

  it('refuses a bad period every time it is asked, with its own error', () => {
    for (const query of [
      { from: '2026-12-02', to: '2026-12-01' },
      { date: '1999-12-31' },
      { from: '2026-01-01', to: '2027-01-01' },
    ]) {
      const errors = [0, 1].map(() => {
        try {
          periodOf(query);
        } catch (error) {
          return error;
        }
        return undefined;
      });
      expect(errors[0]).toBeInstanceOf(ValidationError);
      expect(errors[1]).toBeInstanceOf(ValidationError);
      expect(errors[1]).not.toBe(errors[0]);
      expect((errors[1] as Error).message).toBe((errors[0] as Error).message);
    }
  });
});
