import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { setFlagsFromString } from 'node:v8';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import { AVAILABILITY_CHANGES_CHANNEL } from '../migrations/0010_availability_changes.js';
import { NOTIFY_IN_TRANSACTION_SETTING } from '../migrations/0016_availability_change_log.js';
import { availabilityChangeLog } from './change-log.js';
import {
  type Heartbeat,
  listenPglite,
  listenPostgres,
  type NotificationHandlers,
  type NotificationListener,
} from './notifications.js';
import { bundledTemplate, PGLITE_DEMO_TEMPLATE_DIR, seedDataDirFromTemplate } from './pglite-template.js';
import { PreparingClient, type PreparingOptions } from './preparing-client.js';
import { hostAwareClient } from './multi-host.js';
import { makeDataDirPrivate, PrivateNodeFS } from './private-data-dir.js';
import type { Database } from './schema.js';
import { typeParsers } from './type-parsers.js';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  /** `postgres` for a real server (DATABASE_URL), `pglite` for the embedded one. */
  kind: 'postgres' | 'pglite';
  /** The pg pool on PostgreSQL (the shared rate-limit store and the pool gauges read it). */
  pool?: pg.Pool;
  /** The embedded database itself (spa backup copies its files). */
  pglite?: PGlite;
  /** Notifications of `channel` (NOTIFY, pg_notify), from every session of the database. */
  listen(channel: string, handlers: NotificationHandlers): Promise<NotificationListener>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** A PostgreSQL URL; when absent, the embedded PGlite database in dataDir is used. */
  databaseUrl?: string | undefined;
  /** Where LISTEN connects when not DATABASE_URL: a transaction pooler cannot carry LISTEN, the primary can. */
  listenUrl?: string | undefined;
  /** Directory of the embedded database; undefined keeps it in memory (tests). */
  dataDir?: string | undefined;
  /** An empty dataDir starts from the build's demo snapshot (DEMO_DATA on a server start) rather than empty. */
  demoData?: boolean;
  poolSize?: number;
  /** PostgreSQL cancels a statement that runs longer (STATEMENT_TIMEOUT_MS); 0 means no limit. */
  statementTimeoutMs?: number;
  /** How long a query waits for a pooled connection, or for a new one to open (DB_ACQUIRE_TIMEOUT_MS). */
  acquireTimeoutMs?: number;
  /**
   * The client's own bound on one round trip (DB_QUERY_TIMEOUT_MS): a database that stops answering without
   * closing (a partition, a hung server) fails the query here, and the connection is destroyed. 0: none.
   */
  queryTimeoutMs?: number;
  /**
   * PostgreSQL gives up waiting for a lock after this long (0: never). Below the acquire timeout, so writes stuck
   * behind a lock give their connections back before reads waiting for one give up.
   */
  lockTimeoutMs?: number;
  /** Named prepared statements (default true); false behind a transaction pooler without support for them. */
  preparedStatements?: boolean;
  /** The pool's connections in pg_stat_activity (a replica's pool says it is one). */
  applicationName?: string;
  /** Told about connection errors the pool absorbs (a log line); they never end the process. */
  onConnectionError?: (error: Error) => void;
  /** Told about something an operator should fix or know (a log line): a DATA_DIR that was open to others. */
  onWarning?: (fields: Record<string, unknown>, message: string) => void;
}

/**
 * The availability change log read ten times a second (the heartbeat): how long another process's commit may take
 * to drop this process's entries when nothing asks earlier. A hit never waits for it: it reads the log first.
 */
const CHANGE_LOG_HEARTBEAT: Partial<Heartbeat> = { everyMs: 100 };

export const DEFAULT_STATEMENT_TIMEOUT_MS = 5000;
export const DEFAULT_ACQUIRE_TIMEOUT_MS = 2000;
/** The client-side bound: the statement timeout plus a second for the cancellation to come back (30 s without). */
export const defaultQueryTimeoutMs = (statementTimeoutMs: number) =>
  statementTimeoutMs > 0 ? statementTimeoutMs + 1000 : 30_000;

export async function connect(options: ConnectOptions): Promise<DatabaseHandle> {
  return options.databaseUrl ? connectPostgres(options.databaseUrl, options) : connectPglite(options);
}

function connectPostgres(url: string, options: ConnectOptions): DatabaseHandle {
  const statementTimeout = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const acquireTimeout = options.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS;
  // Half: a request stuck on a lock gives its connection back well before one queued behind it gives up.
  const lockTimeout = options.lockTimeoutMs ?? Math.max(1, Math.floor(acquireTimeout / 2));
  const onError = options.onConnectionError ?? (() => undefined);
  // Several hosts (a primary and its standby): each new connection goes to the one that is the leader now.
  const { Client, connectionString } = hostAwareClient(PreparingClient, url);
  const config: pg.PoolConfig & PreparingOptions = {
    connectionString,
    max: options.poolSize ?? 10,
    Client,
    namedStatements: options.preparedStatements ?? true,
    ...(options.applicationName ? { application_name: options.applicationName } : {}),
    connectionTimeoutMillis: acquireTimeout,
    // PreparingClient destroys a connection whose round trip timed out, so the pool never hands it out again.
    query_timeout: options.queryTimeoutMs ?? defaultQueryTimeoutMs(statementTimeout),
    // A peer that vanished without closing (a cut network) is noticed by TCP keepalives, not only at the next write.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // Every session in UTC, so timestamptz text is the same on every machine; a stuck lock or a runaway
    // statement is cancelled by the server itself instead of holding a connection and its request.
    options: `-c TimeZone=UTC -c statement_timeout=${statementTimeout} -c lock_timeout=${lockTimeout}`,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        typeParsers[oid] ??
        (pg.types.getTypeParser(oid, format) as (value: string) => unknown)) as typeof pg.types.getTypeParser,
    },
  };
  const pool = new pg.Pool(config);
  // A connection the server drops (restart, admin termination, a cut network) emits 'error' on its client,
  // idle or checked out. pg listens only while a client is idle: one listener for the client's whole life keeps
  // such an error from becoming an uncaught exception. The query in flight fails on its own and the pool
  // discards the broken client when it is released; the next query opens a new connection.
  pool.on('connect', (client) => client.on('error', onError));
  pool.on('error', onError);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const listenUrl = options.listenUrl ?? url;
  return {
    db,
    kind: 'postgres',
    pool,
    // Schedule changes are logged by their writers, not notified (migrations/0016_availability_change_log.ts): the
    // listener reads the log; the channel only wakes it early.
    listen: (channel, handlers) =>
      Promise.resolve(
        channel === AVAILABILITY_CHANGES_CHANNEL
          ? listenPostgres(listenUrl, channel, handlers, CHANGE_LOG_HEARTBEAT, availabilityChangeLog)
          : listenPostgres(listenUrl, channel, handlers),
      ),
    close: () => closeWithin(db, pool, acquireTimeout),
  };
}

/**
 * Ends the pool, waiting for connections in use to come back; past `withinMs` (a frozen database, whose sockets
 * would wait for a goodbye that never comes) every connection is destroyed instead.
 */
async function closeWithin(db: Db, pool: pg.Pool, withinMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), withinMs)));
  const ended = await Promise.race([db.destroy(), timedOut]);
  clearTimeout(timer);
  if (ended === 'timeout') PreparingClient.destroyAll();
}

async function connectPglite({ dataDir, demoData, onWarning }: ConnectOptions): Promise<DatabaseHandle> {
  if (!dataDir) return fromPglite(await openPglite({}));
  const tightened = makeDataDirPrivate(dataDir);
  if (tightened > 0)
    onWarning?.(
      { data_dir: dataDir, made_private: tightened },
      'DATA_DIR was open to other local users; made it private (directories 0700, files 0600)',
    );
  const unlock = lockDataDir(dataDir);
  try {
    // An empty DATA_DIR starts as a copy of the build's migrated template (pglite-template.ts), when there is one.
    const template = (demoData && bundledTemplate(PGLITE_DEMO_TEMPLATE_DIR)) || bundledTemplate();
    if (seedDataDirFromTemplate(dataDir, template)) makeDataDirPrivate(dataDir);
    const handle = fromPglite(await openPglite({ dataDir }));
    return { ...handle, close: () => handle.close().finally(unlock) };
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * PostgreSQL's shared buffer pool, for the embedded database. PGlite zero-fills the whole pool as it starts, inside
 * WebAssembly memory the process has never touched: at PostgreSQL's default of 128 MB that was ~32,000 page faults,
 * 0.35-0.5 s of every start and a third of the process's memory. One process and one session use it, and a page
 * not in the pool is one read from the operating system's cache away, so a small pool costs little.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * How much of a WebAssembly function's code V8 runs before it recompiles the function with its optimising compiler
 * (a rough count of bytes executed): 100 times Node 20's default of 1.8 M, 14 times Node 24's. PostgreSQL's hot
 * functions are large, and at the default Node 20 spent 1.5-2 s of CPU optimising them in the background during a
 * start, on a 2-core machine the CPU the start itself needed: the first start took ~0.4 s longer. With this budget
 * what stays hot is still optimised, a few seconds later: queries answered at the same speed after the warm-up
 * (measured with a generate_series and md5 loop that spends its time inside WebAssembly).
 */
const WASM_TIERING_BUDGET = 180_000_000;

/** An embedded PostgreSQL with the extension and parsers the schema needs, its session in UTC. */
export async function openPglite({ dataDir, ...options }: { dataDir?: string; loadDataDir?: Blob }): Promise<PGlite> {
  // Read when PGlite compiles its WebAssembly, below; V8 ignores, with a warning, a flag a later version drops.
  setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
  const pglite = await PGlite.create({
    ...options,
    // Command-line settings, over any DATA_DIR's postgresql.conf; the rest of PGlite's own are kept.
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    ...(dataDir ? { fs: new PrivateNodeFS(dataDir) } : {}),
    extensions: { btree_gist },
    parsers: typeParsers,
  });
  await pglite.exec(`set TimeZone = 'UTC'`);
  // One session and one writer at a time: a schedule change's notice in its own transaction holds up no other
  // writer here, and reaches the listeners before the commit returns (migrations/0016_availability_change_log.ts).
  await pglite.exec(`set ${NOTIFY_IN_TRANSACTION_SETTING} = 'in_transaction'`);
  return pglite;
}

/** Wraps an open PGlite instance (tests clone one migrated instance instead of migrating again). */
export function fromPglite(pglite: PGlite): DatabaseHandle {
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    kind: 'pglite',
    pglite,
    listen: (channel, handlers) => listenPglite(pglite, channel, handlers),
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}
