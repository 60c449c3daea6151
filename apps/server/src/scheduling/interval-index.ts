/**
 * Intervals as epoch milliseconds. The slot loop compares tens of thousands of intervals per 62-day request;
 * Temporal.Instant objects (BigInt inside the polyfill) made it 20x slower, so instants are numbers inside the
 * computation (holds arrive as such, epoch-interval.ts; the rest is converted in venue-day.ts) and Temporal values
 * again on the way out.
 */
export interface Span {
  startMs: number;
  endMs: number;
}

/** Half-open [a.startMs, a.endMs) and [start, end) share an instant. */
export const overlaps = (a: Span, start: number, end: number) => a.startMs < end && start < a.endMs;

export function anyOverlap(items: readonly Span[], start: number, end: number): boolean {
  return items.some((item) => overlaps(item, start, end));
}

/**
 * Holds of one room or one therapist, sorted by start. They never overlap each other (the exclusion
 * constraints), so their ends are sorted too and a binary search finds the first one that can touch [start, end).
 */
export class SortedSpans<T extends Span> {
  private readonly items: T[];

  constructor(items: T[]) {
    this.items = [...items].sort((a, b) => a.startMs - b.startMs);
  }

  /** Whether a hold overlapping [start, end) passes `test`; asked per candidate and resource, so nothing is collected. */
  some(start: number, end: number, test: (item: T) => boolean): boolean {
    for (let i = this.firstEndingAfter(start); i < this.items.length && this.items[i]!.startMs < end; i++) {
      if (overlaps(this.items[i]!, start, end) && test(this.items[i]!)) return true;
    }
    return false;
  }

  any(start: number, end: number): boolean {
    const i = this.firstEndingAfter(start);
    return i < this.items.length && overlaps(this.items[i]!, start, end);
  }

  private firstEndingAfter(instant: number): number {
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.items[mid]!.endMs <= instant) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

export function indexBy<T extends Span>(items: T[], key: (item: T) => string): Map<string, SortedSpans<T>> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return new Map([...groups].map(([k, v]) => [k, new SortedSpans(v)]));
}
