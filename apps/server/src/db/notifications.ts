import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { ChangeFeed, ChangeReader } from './change-log.js';
import { hostAwareClient } from './multi-host.js';

export interface NotificationHandlers {
  onNotify(payload: string): void;
  /**
   * Told whenever notifications start or stop being known to arrive. While they are not (the listening connection
   * lost, not yet re-established), anything that trusts them must not trust what it holds.
   */
  onLive(live: boolean): void;
}

export interface NotificationListener {
  /**
   * Whether every notification committed more than `trustMs` ago is known to have arrived: false as soon as the
   * connection stops answering, long before it is declared lost.
   */
  isCurrent(): boolean;
  /**
   * Resolves once every notification committed before the call has been handed to onNotify (or the connection is
   * known lost, which onLive(false) has told): what a cache awaits before it trusts what it holds, so that no
   * commit that finished before a read began is missed.
   */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface Heartbeat {
  /** Pause between a heartbeat's answer and the next heartbeat. */
  everyMs: number;
  /** A heartbeat unanswered this long: the connection is lost, and opened again. */
  timeoutMs: number;
  /** How old the last answered heartbeat may be for the listener to count as current. */
  trustMs: number;
}

/** The listening connection's application_name in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'spa-notifications';

const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 2_000;
/**
 * A network cut without a reset leaves a socket that looks open; TCP keepalive would notice only after minutes
 * (the kernel's probe schedule). A `select 1` on the listening connection is answered only after every
 * notification committed before it was sent (PostgreSQL sends them first), so an answered heartbeat proves the
 * listener current as of its sending. Four a second keep a revocation's worst case near `trustMs` even when
 * the notice itself is lost in a partition; the loss is declared after `timeoutMs` and the connection opened
 * again.
 */
export const DEFAULT_HEARTBEAT: Heartbeat = { everyMs: 250, timeoutMs: 2_000, trustMs: 750 };

/**
 * LISTEN on a connection of its own (LISTEN is session state, so not a pooled one), re-established with backoff
 * whenever it is lost (a restart, an admin termination, a cut network). Hand-written rather than pg-listen: that
 * package has not been released since 2020, and what matters here is the live/not-live signal around each
 * reconnection, which is a dozen lines over pg.Client.
 *
 * With a `feed` (a change log its writers append to in their own transactions: db/change-log.ts) what changed is
 * read from the log, not from notices: the heartbeat is a read of the log, a notice on the channel only asks for
 * an early one, and sync() is a read sent after the call, whose snapshot holds every commit that finished before.
 * A read that fails loses the connection (onLive(false)) before sync() resolves, so no caller trusts a gap.
 */
export function listenPostgres(
  url: string,
  channel: string,
  handlers: NotificationHandlers,
  heartbeatOptions: Partial<Heartbeat> = {},
  feed?: ChangeFeed,
): NotificationListener {
  const heartbeat = { ...DEFAULT_HEARTBEAT, ...heartbeatOptions };
  let closed = false;
  let client: pg.Client | undefined;
  let retryMs = RETRY_MIN_MS;
  let timer: NodeJS.Timeout | undefined;
  let beating: NodeJS.Timeout | undefined;
  /** When the last answered heartbeat (or the LISTEN itself) was sent, by performance.now(). */
  let confirmedAt = -Infinity;
  /** The open connection's reader of the feed, once positioned. */
  let reader: ChangeReader | undefined;

  /**
   * Per connection, what resolves once it is given up: a query on a connection cut without a reset may never be
   * answered, and the callers of sync() waiting on it are let go instead (the cache sees it no longer live).
   */
  const givenUp = new WeakMap<pg.Client, { promise: Promise<void>; resolve: () => void }>();

  const lost = (from: pg.Client) => {
    if (from !== client) return;
    client = undefined;
    reader = undefined;
    givenUp.get(from)?.resolve();
    inFlight = undefined;
    waiting = undefined;
    confirmedAt = -Infinity;
    clearTimeout(beating);
    handlers.onLive(false);
    from.removeAllListeners('notification');
    void from.end().catch(() => undefined);
    if (closed) return;
    timer = setTimeout(() => void open(), retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };

  // Several hosts: the listening connection follows the leader, as the pool's connections do.
  const { Client, connectionString } = hostAwareClient(pg.Client, url);

  async function open() {
    const next = new Client({
      connectionString,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      // Named, so an operator (or a test) can tell it in pg_stat_activity.
      application_name: LISTENER_APPLICATION_NAME,
    });
    client = next;
    let resolve: () => void = noop;
    givenUp.set(next, { promise: new Promise<void>((r) => (resolve = r)), resolve: () => resolve() });
    // Every error of this connection ends in a reconnection, never in an uncaught exception.
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    next.on('notification', (message) => {
      if (message.channel !== channel) return;
      if (feed) void sync();
      else handlers.onNotify(message.payload ?? '');
    });
    // One heartbeat at a time: the next is sent once this one is answered.
    const beat = () => {
      const sentAt = performance.now();
      const deadline = setTimeout(() => lost(next), heartbeat.timeoutMs).unref();
      if (feed) {
        // A read of the feed is the heartbeat: an answered one confirms the listener (read()).
        void sync().then(() => {
          clearTimeout(deadline);
          if (client === next) beating = setTimeout(beat, heartbeat.everyMs).unref();
        });
        return;
      }
      next.query('select 1').then(
        () => {
          clearTimeout(deadline);
          if (client !== next) return;
          confirmedAt = sentAt;
          beating = setTimeout(beat, heartbeat.everyMs).unref();
        },
        () => lost(next),
      );
    };
    try {
      await next.connect();
      const sentAt = performance.now();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
      // Positioned after LISTEN: a wake-up for a change the position already covers costs one empty read.
      const positioned = feed ? await feed.open(next) : undefined;
      if (closed || client !== next) return void next.end().catch(() => undefined);
      reader = positioned;
      retryMs = RETRY_MIN_MS;
      confirmedAt = sentAt;
      handlers.onLive(true);
      beating = setTimeout(beat, heartbeat.everyMs).unref();
    } catch {
      lost(next);
    }
  }

  // PostgreSQL sends a session its pending notifications before the answer to its next query, so a `select 1`
  // sent after the call proves every notice committed before it delivered. Callers share queries: those that
  // come while one is in flight share the next (sent once it is answered), so a burst of readers costs two
  // round trips of latency and one query, not one query each.
  let inFlight: Promise<void> | undefined;
  let waiting: Promise<void> | undefined;
  function sync(): Promise<void> {
    const on = client;
    if (!on) return Promise.resolve();
    if (waiting) return waiting;
    const send = () => {
      waiting = undefined;
      const asked = feed ? read(on) : on.query('select 1').then(noop, noop);
      const answered = Promise.race([asked, givenUp.get(on)!.promise]);
      inFlight = answered;
      void answered.then(() => {
        if (inFlight === answered) inFlight = undefined;
      });
      return answered;
    };
    if (!inFlight) return send();
    return (waiting = inFlight.then(send));
  }

  /** One read of the feed on `on` (never two at once: sync() sends them one after another). */
  async function read(on: pg.Client): Promise<void> {
    const positioned = reader;
    if (client !== on || !positioned) return;
    const sentAt = performance.now();
    try {
      const payloads = await positioned(on);
      if (client !== on) return;
      confirmedAt = sentAt;
      for (const payload of payloads) handlers.onNotify(payload);
    } catch {
      lost(on);
    }
  }

  void open();
  return {
    isCurrent: () => performance.now() - confirmedAt < heartbeat.trustMs,
    sync,
    close: async () => {
      closed = true;
      clearTimeout(timer);
      clearTimeout(beating);
      const last = client;
      client = undefined;
      if (last) givenUp.get(last)?.resolve();
      handlers.onLive(false);
      await last?.end().catch(() => undefined);
    },
  };
}

/**
 * The embedded database lives in this process, so its notifications are delivered here directly (after the
 * notifying transaction commits) and can never be missed: live from the moment the listener is registered.
 */
export async function listenPglite(
  pglite: PGlite,
  channel: string,
  handlers: NotificationHandlers,
): Promise<NotificationListener> {
  const unlisten = await pglite.listen(channel, handlers.onNotify);
  handlers.onLive(true);
  return {
    isCurrent: () => !pglite.closed,
    // PGlite hands a transaction's notifications to the listeners while its commit is answered, before the
    // committing call returns: nothing is left to wait for.
    sync: () => Promise.resolve(),
    close: async () => {
      handlers.onLive(false);
      if (!pglite.closed) await unlisten();
    },
  };
}

const noop = () => undefined;
