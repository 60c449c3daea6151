import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { DatabaseHandle, Db } from '../db/connect.js';
import type { NotificationListener } from '../db/notifications.js';
import { API_KEY_CHANGES_CHANNEL } from '../migrations/0004_api_key_changes.js';
import { type ApiKeyRow, findApiKey } from './api-keys.repository.js';

/** How a request's key row is found: from the database each time, or from a cache kept true by notifications. */
export interface ApiKeyLookup {
  find(id: string): Promise<ApiKeyRow | undefined>;
}

export const uncachedKeyLookup = (db: Db): ApiKeyLookup => ({ find: (id) => findApiKey(db, id) });

/** Keys a process holds at most; past it the least recently used is read from the database again. */
const MAX_CACHED_KEYS = 10_000;
/**
 * Unknown ids a process remembers at most, apart from the keys, so a flood of made-up ids costs bounded memory
 * and never evicts a real key's row.
 */
const MAX_UNKNOWN_IDS = 10_000;

/**
 * API-key rows in process memory, so an authenticated request costs no round trip for its key. A row is trusted
 * only while the change notifications of migration 0004 are known to arrive: every update or delete of a key
 * drops it here the moment it commits (revocation takes effect at once, in every process), and while the
 * listening connection is down the cache is emptied and bypassed; while it is only silent (no heartbeat answered
 * for a moment, db/notifications.ts) the cache is bypassed, so a revocation whose notice was lost still applies
 * within about a second. Each reconnection empties it, since notices may have been missed meanwhile. Unknown ids are remembered the same way (a key's
 * insert is announced too, migration 0006): a known id with a wrong secret and an unknown id cost the same, one
 * query the first time and none after, so no timing tells them apart. A read that raced with a change (the notice
 * came while the row was on its way) is not kept.
 */
export class ApiKeyCache implements ApiKeyLookup {
  private readonly rows = new LRUCache<string, ApiKeyRow>({ max: MAX_CACHED_KEYS });
  private readonly unknown = new LRUCache<string, true>({ max: MAX_UNKNOWN_IDS });
  /** Bumped by every change notice: a row read across a bump may predate the change. */
  private generation = 0;
  private live = false;
  private listener: NotificationListener | undefined;

  private constructor(private readonly db: Db) {}

  /** Listens for key changes on the database of `handle`; close() stops. */
  static async start(handle: Pick<DatabaseHandle, 'db' | 'listen'>, logger?: Pick<Logger, 'warn' | 'info'>) {
    const cache = new ApiKeyCache(handle.db);
    cache.listener = await handle.listen(API_KEY_CHANGES_CHANNEL, {
      onNotify: (id) => cache.changed(id),
      onLive: (live) => {
        if (live === cache.live) return;
        cache.setLive(live);
        if (live) logger?.info('API-key cache on: key changes are notified');
        else logger?.warn('API-key change notifications lost: keys are read from the database until they resume');
      },
    });
    return cache;
  }

  async find(id: string): Promise<ApiKeyRow | undefined> {
    // Rows are used only while the listener is current: a notice lost in a partition the heartbeat has not yet
    // declared (the socket still looks open) costs a query, not a revoked key served.
    if (this.live && this.listener?.isCurrent() === true) {
      const hit = this.rows.get(id);
      if (hit || this.unknown.get(id)) return hit;
    }
    const generation = this.generation;
    const row = await findApiKey(this.db, id);
    if (this.live && generation === this.generation) {
      if (row) this.rows.set(id, row);
      else this.unknown.set(id, true);
    }
    return row;
  }

  /** Whether change notifications are known to arrive, so cached rows are used. */
  get isLive(): boolean {
    return this.live;
  }

  /** Rows held. */
  get size(): number {
    return this.rows.size;
  }

  async close(): Promise<void> {
    await this.listener?.close();
  }

  private changed(id: string) {
    this.generation++;
    if (id === '*') {
      this.rows.clear();
      this.unknown.clear();
    } else {
      this.rows.delete(id);
      this.unknown.delete(id);
    }
  }

  private setLive(live: boolean) {
    this.generation++;
    this.rows.clear();
    this.unknown.clear();
    this.live = live;
  }
}
