import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { DatabaseHandle } from '../db/connect.js';
import type { NotificationListener } from '../db/notifications.js';
import { AVAILABILITY_CHANGES_CHANNEL } from '../migrations/0010_availability_changes.js';

/** A computed 200: its bytes, and until when (epoch ms) the clock alone leaves them true. */
export interface FreshAnswer {
  bytes: Buffer;
  /** The first listed slot's start less the lead time: from then on it is no longer offered. */
  freshUntilMs: number;
}

export interface AvailabilityCacheOptions {
  /** Bytes of answers and venue rows held at most; the least recently used go first. */
  maxBytes: number;
}

export interface AvailabilityCacheStats {
  hits: number;
  misses: number;
  /** Bytes held (the answers' JSON, the rows' estimate). */
  bytes: number;
  entries: number;
}

interface Entry {
  venueId: string;
  value: unknown;
  size: number;
  /** Answers only: epoch ms from which the entry is no longer true. */
  freshUntilMs: number;
}

/** What an entry costs beyond its bytes: the key, the entry object and the index (a rough, fixed estimate). */
const ENTRY_OVERHEAD_BYTES = 200;

/** Venues whose last notice time is kept: past it the oldest are forgotten (a bound, not a rule). */
const MAX_NOTICED_VENUES = 100_000;

/**
 * Availability answers in process memory, per venue, until the schedule changes (docs/decisions.md, "Availability
 * cache"). Two kinds of entry, both tagged with their venue: a venue with one of its variants as the
 * route reads it (so a warm request costs no round trip at all), and the encoded 200 of one (venue, variant, guest
 * count, venue-local dates) request. Bounded by bytes (lru-cache's maxSize), least recently used first.
 *
 * Entries are trusted only while the schedule changes are known to arrive, as the API-key cache does
 * (db/notifications.ts): on PostgreSQL the listener reads the change log the triggers write (migrations 0010 and
 * 0016, db/change-log.ts), on the embedded database the notices of the writing transaction. Each commit that
 * changes what availability reads drops its venues' entries when its change arrives; while the listener is down or
 * silent the cache is bypassed, and each (re)connection empties it, since changes may have been missed. A read
 * that raced with a change of its venue (the change came while the answer was being computed) is served but not
 * kept. A hit first waits for the changes of every commit that finished before its request arrived (lookup: one
 * read of the log on the listener, shared), so no read, in any process, misses a commit that came before it,
 * whoever made it. The routes that commit a change also drop their venues at once and
 * wait for their own notices before answering (settle).
 */
export class AvailabilityCache {
  private readonly entries: LRUCache<string, Entry>;
  /** Keys held per venue, so a venue's notice drops its entries without a scan. */
  private readonly byVenue = new Map<string, Set<string>>();
  /** Counts change notices; a read remembers the count it started at. */
  private epoch = 0;
  /** Per venue, the epoch of its last change; forgotten whenever no read is in flight (none could compare). */
  private readonly changedAt = new Map<string, number>();
  private clearedAt = 0;
  /** Per venue, when (performance.now()) its last change notice arrived; see changedWithin. */
  private readonly noticedAt = new Map<string, number>();
  private allNoticedAt = -Infinity;
  private inFlight = 0;
  private live = false;
  private closing = false;
  private listener: NotificationListener | undefined;
  /** performance.now() before which every committed notice is known to have arrived (the last sync's asking). */
  private caughtUpTo = -Infinity;
  private hits = 0;
  private misses = 0;

  constructor(options: AvailabilityCacheOptions) {
    this.entries = new LRUCache<string, Entry>({
      maxSize: Math.max(1, options.maxBytes),
      sizeCalculation: (entry) => entry.size,
      dispose: (entry, key) => this.unindex(entry.venueId, key),
    });
  }

  /** A cache listening for schedule changes on the database of `handle`; close() stops. */
  static async start(
    handle: Pick<DatabaseHandle, 'listen'>,
    options: AvailabilityCacheOptions,
    logger?: Pick<Logger, 'warn' | 'info'>,
  ): Promise<AvailabilityCache> {
    const cache = new AvailabilityCache(options);
    cache.listener = await handle.listen(AVAILABILITY_CHANGES_CHANNEL, {
      onNotify: (payload) => cache.changed(payload === '*' ? '*' : [payload]),
      onLive: (live) => {
        if (live === cache.live) return;
        cache.setLive(live);
        if (live) logger?.info('availability cache on: schedule changes are notified');
        // Closing ends the notifications on purpose: nothing is lost, so nothing to warn about.
        else if (!cache.closing)
          logger?.warn('schedule change notifications lost: availability is read from the database until they resume');
      },
    });
    return cache;
  }

  /**
   * The venue row (with a variant) that `load` reads, from memory when held. Rows of unknown venues are not kept
   * (no venue id to drop them by when one is created).
   */
  async venueRow<T extends { id: string }>(
    key: string,
    load: () => Promise<T | undefined>,
    since = performance.now(),
  ): Promise<T | undefined> {
    const held = await this.heldVenueRow<T>(key, since);
    if (held) return held;
    return this.fill(`row|${key}`, load, (row) =>
      row ? { venueId: row.id, size: rowSize(row), freshUntilMs: Infinity } : undefined,
    );
  }

  /**
   * The 200's bytes for an answer `key` of `venueId`, computed by `load` unless held and still fresh at `nowMs`
   * (the request's clock). `since`: when the request arrived (performance.now()).
   */
  async answer(
    venueId: string,
    key: string,
    nowMs: number,
    load: () => Promise<FreshAnswer>,
    since = performance.now(),
  ): Promise<Buffer> {
    const held = await this.heldAnswer(venueId, key, nowMs, since);
    if (held) return held;
    const fresh = await this.fill(`answer|${venueId}|${key}`, load, (answer) => ({
      venueId,
      size: answer.bytes.byteLength,
      freshUntilMs: answer.freshUntilMs,
      value: answer.bytes,
    }));
    return fresh.bytes;
  }

  /**
   * venueRow's row if held, without a loader: a hit then costs no closure. Undefined when not held (or not
   * trusted); the caller then asks venueRow, which reads and keeps it.
   */
  async heldVenueRow<T>(key: string, since = performance.now()): Promise<T | undefined> {
    return (await this.lookup(`row|${key}`, -Infinity, since)) as T | undefined;
  }

  /** answer's bytes if held and fresh at `nowMs`, without a loader (as heldVenueRow); undefined otherwise. */
  async heldAnswer(
    venueId: string,
    key: string,
    nowMs: number,
    since = performance.now(),
  ): Promise<Buffer | undefined> {
    return (await this.lookup(`answer|${venueId}|${key}`, nowMs, since)) as Buffer | undefined;
  }

  /** Drops what is held for `venues` (`*`: everything): a change notice, or this process's own commit. */
  changed(venues: readonly string[] | '*'): void {
    this.epoch++;
    this.noted(venues);
    if (venues === '*') {
      this.clearedAt = this.epoch;
      this.entries.clear();
      return;
    }
    for (const venue of venues) {
      this.changedAt.set(venue, this.epoch);
      for (const key of [...(this.byVenue.get(venue) ?? [])]) this.entries.delete(key);
    }
  }

  /**
   * Whether `venueId` changed (or every venue was dropped: a notice for all, the listener back after a gap) less
   * than `ms` ago. A replica may trail the primary by up to that long, so an answer filled from one so soon after a
   * change could predate it and would be kept until the next change: such fills read the primary.
   */
  changedWithin(venueId: string, ms: number): boolean {
    if (ms <= 0) return false;
    const last = Math.max(this.allNoticedAt, this.noticedAt.get(venueId) ?? -Infinity);
    return performance.now() - last < ms;
  }

  private noted(venues: readonly string[] | '*'): void {
    const now = performance.now();
    if (venues === '*') {
      this.allNoticedAt = now;
      this.noticedAt.clear();
      return;
    }
    for (const venue of venues) {
      this.noticedAt.delete(venue); // re-inserted last, so the map stays ordered by time
      this.noticedAt.set(venue, now);
    }
    // Only the recent ones matter to changedWithin; the oldest are first.
    while (this.noticedAt.size > MAX_NOTICED_VENUES) this.noticedAt.delete(this.noticedAt.keys().next().value!);
  }

  /**
   * After this process committed a schedule change: drops `venues` at once, then waits until the notices of every
   * commit before now have arrived (a round trip on the listening connection), so a change that reached venues
   * this process could not name (a therapist's other venues) is dropped too before the writer answers.
   */
  async settle(venues: readonly string[]): Promise<void> {
    this.changed(venues);
    await this.listener?.sync();
  }

  /** Whether entries are used: notices are known to arrive. */
  get isLive(): boolean {
    return this.live && this.listener?.isCurrent() === true;
  }

  get stats(): AvailabilityCacheStats {
    return { hits: this.hits, misses: this.misses, bytes: this.entries.calculatedSize, entries: this.entries.size };
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.listener?.close();
  }

  /**
   * The entry's value, once the notices of every commit that finished before `since` (the request's arrival, by
   * performance.now()) have arrived: a round trip on the listening connection (db/notifications.ts), shared by
   * the requests that arrived before it was asked for. So a hit never misses a commit that came before the
   * request, whichever process made it.
   */
  private async lookup(key: string, nowMs: number, since: number): Promise<unknown> {
    if (!this.isLive || !this.entries.has(key)) return undefined;
    if (this.caughtUpTo < since) {
      const asked = performance.now();
      await this.listener!.sync();
      this.caughtUpTo = Math.max(this.caughtUpTo, asked);
    }
    if (!this.isLive) return undefined;
    const entry = this.entries.get(key);
    if (entry && nowMs < entry.freshUntilMs) {
      this.hits++;
      return entry.value;
    }
    if (entry) this.entries.delete(key);
    return undefined;
  }

  private async fill<T>(
    key: string,
    load: () => Promise<T>,
    entryOf: (value: T) => (Omit<Entry, 'value'> & { value?: unknown }) | undefined,
  ): Promise<T> {
    this.misses++;
    const started = this.epoch;
    this.inFlight++;
    try {
      const value = await load();
      const entry = entryOf(value);
      if (entry && this.isLive && this.unchangedSince(entry.venueId, started)) {
        const size = entry.size + key.length * 2 + ENTRY_OVERHEAD_BYTES;
        this.entries.set(key, { value, ...entry, size });
        this.index(entry.venueId, key);
      }
      return value;
    } finally {
      if (--this.inFlight === 0) this.changedAt.clear();
    }
  }

  private unchangedSince(venueId: string, epoch: number): boolean {
    return this.clearedAt <= epoch && (this.changedAt.get(venueId) ?? 0) <= epoch;
  }

  private index(venueId: string, key: string) {
    // An entry larger than the whole bound is refused by lru-cache: nothing to index.
    if (!this.entries.has(key)) return;
    let keys = this.byVenue.get(venueId);
    if (!keys) this.byVenue.set(venueId, (keys = new Set()));
    keys.add(key);
  }

  private unindex(venueId: string, key: string) {
    const keys = this.byVenue.get(venueId);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) this.byVenue.delete(venueId);
  }

  private setLive(live: boolean) {
    this.changed('*');
    this.caughtUpTo = -Infinity;
    this.live = live;
  }
}

/** A row's heap cost, roughly: its JSON, two bytes a character. */
function rowSize(row: object): number {
  return JSON.stringify(row).length * 2;
}
