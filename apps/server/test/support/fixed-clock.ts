import { Temporal } from 'temporal-polyfill';
import type { Clock } from '../../src/lib/clock.js';

/** A clock the test sets by hand. */
export function fixedClock(iso: string): Clock & { set(iso: string): void } {
  let current = Temporal.Instant.from(iso);
  return {
    now: () => current,
    set: (next: string) => {
      current = Temporal.Instant.from(next);
    },
  };
}
