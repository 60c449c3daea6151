import type { Logger } from 'pino';
import type { DatabaseHandle, Db } from '../db/connect.js';
import type { NotificationListener } from '../db/notifications.js';
import { API_KEY_CHANGES_CHANNEL } from '../migrations/0004_api_key_changes.js';
import { type ApiKeyRow, findActiveApiKeys, findApiKey } from './api-keys.repository.js';

/** How a request's key row is found: from the database each time, or from a cache kept true by notifications. */
export interface ApiKeyLookup {
  find(id: string): Promise<ApiKeyRow | undefined>;
  /**
   * The row again once every change committed before now is known: asked for each refused key, so a key created a
   * moment ago (maybe by another process) whose notice is still on its way authenticates.
   */
  recheck?(id: string): Promise<ApiKeyRow | undefined>;
}

export const uncachedKeyLookup = (db: Db): ApiKeyLookup => ({ find: (id) => findApiKey(db, id) });

/**
 * Every active API key's row in process memory, so an authenticated request costs no round trip for its key, and
 * neither does an id no key has: the whole set is held, so "not there" is an answer too, and the first sight of a
 * never-seen id costs what a key in use costs (one lookup in memory). Rows are trusted only while the change
 * notifications of migrations 0004 and 0006 are known to arrive: every insert, update or delete of a key marks its
 * id changed the moment it commits, and the id is read from the database until its row is read again (which starts
 * at once); while the listening connection is down or silent (no heartbeat answered for a moment,
 * db/notifications.ts) every request reads its key, known or not, so a revocation whose notice was lost still
 * applies within about a second. Each reconnection reads the whole set again, since notices may have been missed.
 * Until the set is read (start-up, a reconnection, a TRUNCATE), every id costs one query, known or not. A refused
 * key is looked up once more after the notices of every earlier commit have arrived (recheck), whether its id is
 * known or not: so a key just created elsewhere works at once, and a refusal costs the same either way.
 */
export class ApiKeyCache implements ApiKeyLookup {
  /** Every active key (revoked ones are left out: they authenticate nothing), while `complete`. */
  private rows = new Map<string, ApiKeyRow>();
  /** Ids changed since their row was read, with the change's number: read from the database until read again. */
  private readonly stale = new Map<string, number>();
  private complete = false;
  /** Bumped by every change notice. */
  private changes = 0;
  /** Bumped by every full read and every loss of notifications: a read started before belongs to no set. */
  private epoch = 0;
  private loading = false;
  private live = false;
  private closing = false;
  private listener: NotificationListener | undefined;

  private constructor(
    private readonly db: Db,
    private readonly logger: Pick<Logger, 'warn' | 'info'> | undefined,
  ) {}

  /** Listens for key changes on the database of `handle`; close() stops. */
  static async start(handle: Pick<DatabaseHandle, 'db' | 'listen'>, logger?: Pick<Logger, 'warn' | 'info'>) {
    const cache = new ApiKeyCache(handle.db, logger);
    cache.listener = await handle.listen(API_KEY_CHANGES_CHANNEL, {
      onNotify: (id) => cache.changed(id),
      onLive: (live) => {
        if (live === cache.live) return;
        cache.setLive(live);
        if (live) logger?.info('API-key cache on: key changes are notified');
        // Closing ends the notifications on purpose: nothing is lost, so nothing to warn about.
        else if (!cache.closing)
          logger?.warn('API-key change notifications lost: keys are read from the database until they resume');
      },
    });
    return cache;
  }

  async find(id: string): Promise<ApiKeyRow | undefined> {
    // Rows are used only while the listener is current: a notice lost in a partition the heartbeat has not yet
    // declared (the socket still looks open) costs a query, not a revoked key served.
    if (this.live && this.listener?.isCurrent() === true) {
      if (this.complete && !this.stale.has(id)) return this.rows.get(id);
      if (!this.complete) void this.readAll();
    }
    return this.read(id);
  }

  async recheck(id: string): Promise<ApiKeyRow | undefined> {
    // A round trip on the listening connection, shared by the requests that ask meanwhile (db/notifications.ts);
    // on a connection not known to be current, none: find() reads the database then, which is as fresh.
    if (this.live && this.listener?.isCurrent() === true) await this.listener.sync();
    return this.find(id);
  }

  /** Whether change notifications are known to arrive, so held rows are used. */
  get isLive(): boolean {
    return this.live;
  }

  /** Whether every active key is held, so any id is answered from memory. */
  get isComplete(): boolean {
    return this.complete;
  }

  /** Rows held. */
  get size(): number {
    return this.rows.size;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.listener?.close();
  }

  /** One key from the database; kept when no change to it was announced while it was on its way. */
  private async read(id: string): Promise<ApiKeyRow | undefined> {
    const epoch = this.epoch;
    const changes = this.changes;
    const row = await findApiKey(this.db, id);
    if (this.complete && epoch === this.epoch && (this.stale.get(id) ?? 0) <= changes) {
      this.stale.delete(id);
      if (row && row.revoked_at === null) this.rows.set(id, row);
      else this.rows.delete(id);
    }
    return row;
  }

  /** Every active key from the database; ids changed while it was on its way stay to be read one by one. */
  private async readAll(): Promise<void> {
    if (this.loading || this.complete || !this.live) return;
    this.loading = true;
    const epoch = ++this.epoch;
    const changes = this.changes;
    try {
      const all = await findActiveApiKeys(this.db);
      if (epoch !== this.epoch || !this.live) return;
      this.rows = new Map(all.map((row) => [row.id, row]));
      for (const [id, change] of this.stale) {
        if (change <= changes) this.stale.delete(id);
        else this.rows.delete(id);
      }
      this.complete = true;
    } catch (error) {
      // The next request tries again; until then every id costs a query, known or not.
      this.logger?.warn({ err: error }, 'API keys could not be read into memory: each request reads its key');
    } finally {
      this.loading = false;
    }
  }

  private changed(id: string) {
    const change = ++this.changes;
    if (id === '*') {
      this.forget();
      void this.readAll();
      return;
    }
    this.rows.delete(id);
    this.stale.set(id, change);
    // Read the changed key now, so the next request for it is answered from memory again.
    if (this.complete) this.read(id).catch(() => undefined);
  }

  private forget() {
    this.epoch++;
    this.complete = false;
    this.rows = new Map();
    this.stale.clear();
  }

  private setLive(live: boolean) {
    this.forget();
    this.live = live;
    if (live) void this.readAll();
  }
}
