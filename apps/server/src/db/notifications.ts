import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface NotificationHandlers {
  onNotify(payload: string): void;
  /**
   * Told whenever notifications start or stop being known to arrive. While they are not (the listening connection
   * lost, not yet re-established), anything that trusts them must not trust what it holds.
   */
  onLive(live: boolean): void;
}

export interface NotificationListener {
  close(): Promise<void>;
}

const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;
/**
 * A network cut without a reset leaves a socket that looks open; TCP keepalive would notice only after minutes
 * (the kernel's probe schedule). A query every few seconds notices within HEARTBEAT_MS + HEARTBEAT_TIMEOUT_MS.
 */
const HEARTBEAT_MS = 5_000;
const HEARTBEAT_TIMEOUT_MS = 2_000;

/**
 * LISTEN on a connection of its own (LISTEN is session state, so not a pooled one), re-established with backoff
 * whenever it is lost (a restart, an admin termination, a cut network). Hand-written rather than pg-listen: that
 * package has not been released since 2020, and what matters here is the live/not-live signal around each
 * reconnection, which is a dozen lines over pg.Client.
 */
export function listenPostgres(
  url: string,
  channel: string,
  handlers: NotificationHandlers,
  heartbeat = { everyMs: HEARTBEAT_MS, timeoutMs: HEARTBEAT_TIMEOUT_MS },
): NotificationListener {
  let closed = false;
  let client: pg.Client | undefined;
  let retryMs = RETRY_MIN_MS;
  let timer: NodeJS.Timeout | undefined;
  let beating: NodeJS.Timeout | undefined;

  const lost = (from: pg.Client) => {
    if (from !== client) return;
    client = undefined;
    clearInterval(beating);
    handlers.onLive(false);
    from.removeAllListeners('notification');
    void from.end().catch(() => undefined);
    if (closed) return;
    timer = setTimeout(() => void open(), retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };

  async function open() {
    const next = new pg.Client({ connectionString: url, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    client = next;
    // Every error of this connection ends in a reconnection, never in an uncaught exception.
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.onNotify(message.payload ?? '');
    });
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
      if (closed || client !== next) return void next.end().catch(() => undefined);
      retryMs = RETRY_MIN_MS;
      handlers.onLive(true);
      beating = setInterval(() => {
        const deadline = setTimeout(() => lost(next), heartbeat.timeoutMs).unref();
        next.query('select 1').then(
          () => clearTimeout(deadline),
          () => lost(next),
        );
      }, heartbeat.everyMs).unref();
    } catch {
      lost(next);
    }
  }

  void open();
  return {
    close: async () => {
      closed = true;
      clearTimeout(timer);
      clearInterval(beating);
      const last = client;
      client = undefined;
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
    close: async () => {
      handlers.onLive(false);
      if (!pglite.closed) await unlisten();
    },
  };
}
