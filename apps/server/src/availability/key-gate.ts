import pLimit, { type LimitFunction } from 'p-limit';
import { ServiceUnavailableError } from '../errors/domain-errors.js';

/**
 * Heavy requests of one API key take turns: at most `active` of them hold a place in the worker pool's queue at
 * once, and up to `waiting` more wait in the key's own line. So one partner's burst queues behind itself, not in
 * front of every other partner, and a line that would only grow is refused at once with 503 and Retry-After.
 */
export class KeyGate {
  private readonly lines = new Map<string, { limit: LimitFunction; admitted: number }>();

  constructor(
    private readonly active: number,
    private readonly waiting: number,
  ) {}

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    let line = this.lines.get(key);
    if (!line) this.lines.set(key, (line = { limit: pLimit(this.active), admitted: 0 }));
    if (line.admitted >= this.active + this.waiting) return Promise.reject(new ServiceUnavailableError());
    line.admitted++;
    const admitted = line;
    return admitted.limit(work).finally(() => {
      // A key with nothing in flight leaves no entry behind.
      if (--admitted.admitted === 0 && this.lines.get(key) === admitted) this.lines.delete(key);
    });
  }

  /** Requests of `key` computing or waiting (for tests and metrics). */
  inFlight(key: string): number {
    return this.lines.get(key)?.admitted ?? 0;
  }
}
