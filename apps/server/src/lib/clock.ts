import { Temporal } from 'temporal-polyfill';

/** Injected everywhere time matters, so tests can freeze it. */
export interface Clock {
  now(): Temporal.Instant;
}

export const systemClock: Clock = { now: () => Temporal.Now.instant() };
