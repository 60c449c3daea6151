import { Temporal } from 'temporal-polyfill';
import type { Interval } from './snapshot.js';

const { compare } = Temporal.Instant;

/** Half-open intervals [a.start, a.end) and [start, end) share an instant. */
export function overlaps(a: Interval, start: Temporal.Instant, end: Temporal.Instant): boolean {
  return compare(a.start, end) < 0 && compare(start, a.end) < 0;
}

/**
 * Intervals of one resource, sorted by start. Holds of one room or one therapist never overlap each other
 * (the exclusion constraints), so their ends are sorted too and a binary search finds the first candidate.
 */
export class SortedIntervals<T extends Interval> {
  private readonly items: T[];

  constructor(items: T[]) {
    this.items = [...items].sort((a, b) => compare(a.start, b.start));
  }

  /** Every interval overlapping [start, end). */
  *overlapping(start: Temporal.Instant, end: Temporal.Instant): Generator<T> {
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compare(this.items[mid]!.end, start) <= 0) low = mid + 1;
      else high = mid;
    }
    for (let i = low; i < this.items.length && compare(this.items[i]!.start, end) < 0; i++) {
      if (overlaps(this.items[i]!, start, end)) yield this.items[i]!;
    }
  }

  any(start: Temporal.Instant, end: Temporal.Instant): boolean {
    return !this.overlapping(start, end).next().done;
  }
}

/** For lists that may overlap among themselves (absences, blocks): a plain scan, they are short. */
export function anyOverlap(items: readonly Interval[], start: Temporal.Instant, end: Temporal.Instant): boolean {
  return items.some((item) => overlaps(item, start, end));
}

/** Group by a key into sorted interval lists. */
export function indexBy<T extends Interval>(items: T[], key: (item: T) => string): Map<string, SortedIntervals<T>> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return new Map([...groups].map(([k, v]) => [k, new SortedIntervals(v)]));
}
