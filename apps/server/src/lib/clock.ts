import { Temporal } from 'temporal-polyfill';

/** Injected everywhere time matters, so tests can freeze it. */
export interface Clock {
  now(): Temporal.Instant;
}

export const systemClock: Clock = { now: () => Temporal.Now.instant() };

export function fixedClock(iso: string): Clock & { set(iso: string): void } {
  let current = Temporal.Instant.from(iso);
  return {
    now: () => current,
    set: (next: string) => {
      current = Temporal.Instant.from(next);
    },
  };
}
