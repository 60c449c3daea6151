import { sql } from 'kysely';
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import { connect, type ConnectOptions, type DatabaseHandle, type Db } from './connect.js';
import { isDatabaseUnavailable } from './database-errors.js';
import { parseLsn, PrimaryPositions } from './replica-lag.js';

/**
 * Where a read that may be a little stale goes (availability snapshots, the catalogue: venues and treatments).
 * Every write, every booking decision, everything in a transaction and every read that follows a write of the
 * same request stays on the primary's `db`; only callers that need none of that take this.
 */
export interface ReadRouting {
  /** A replica that is up and within the lag bound, or the primary. */
  readDb(): Db;
  /** `run` on readDb(); when a replica fails to serve it (down, cut, a recovery conflict), again on the primary. */
  read<T>(run: (db: Db) => Promise<T>): Promise<T>;
  /**
   * How far behind the primary a replica in use may be: the lag bound plus the time between two checks, during
   * which a replica that stopped replaying is still used. 0 when every read is on the primary.
   */
  readonly maxStaleMs: number;
}

/** Every read on the primary: no replica configured, the embedded database, tests. */
export const primaryReads = (db: Db): ReadRouting => ({ readDb: () => db, read: (run) => run(db), maxStaleMs: 0 });

/** The pools' connections to replicas in pg_stat_activity. */
export const REPLICA_APPLICATION_NAME = 'spa-replica-reads';
/** Each replica's one health-check connection: a pool busy with reads must not make its replica look down. */
export const REPLICA_CHECK_APPLICATION_NAME = 'spa-replica-check';

export interface ReadReplicaOptions {
  primary: Db;
  urls: string[];
  /** The primary pool's hardening (timeouts, pool size, prepared statements), applied to every replica pool. */
  connection: Omit<ConnectOptions, 'databaseUrl' | 'listenUrl' | 'dataDir' | 'applicationName'>;
  maxLagMs: number;
  checkMs: number;
  logger?: Pick<Logger, 'info' | 'warn'> | undefined;
}

interface Replica {
  /** host:port/database, never the credentials. */
  name: string;
  handle: DatabaseHandle;
  checker: DatabaseHandle;
  usable: boolean;
  /** Why it is skipped (logged once per change). */
  reason: string;
  lagMs: number | undefined;
  checking: boolean;
}

/** Recovery conflicts (a query cancelled because replay needed its rows) surface as serialization failures. */
const RECOVERY_CONFLICT = '40001';

/**
 * Read replicas checked off the request path every `checkMs`: one that does not answer, is not a standby, or has
 * replayed less than the primary wrote `maxLagMs` ago is skipped until a later check finds it well, and a read it
 * fails is run again on the primary, so a replica never causes a 5xx. A switch either way is logged once.
 */
export class ReadReplicas implements ReadRouting {
  readonly #primary: Db;
  readonly #replicas: Replica[];
  readonly #positions: PrimaryPositions;
  readonly #options: ReadReplicaOptions;
  #next = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #reads = new Counter({
    name: 'db_reads_total',
    help: 'Catalogue and availability reads, by where they ran (replica or primary)',
    labelNames: ['target'] as const,
    registers: [],
  });
  readonly #fallbacks = new Counter({
    name: 'db_replica_fallbacks_total',
    help: 'Reads a replica failed to serve, run again on the primary',
    labelNames: ['replica'] as const,
    registers: [],
  });

  private constructor(options: ReadReplicaOptions, replicas: Replica[]) {
    this.#options = options;
    this.#primary = options.primary;
    this.#replicas = replicas;
    this.#positions = new PrimaryPositions(options.maxLagMs + 5 * options.checkMs);
  }

  /** The lag bound, plus a check's interval and its timeout: how long a replica that stopped replaying stays in use. */
  get maxStaleMs(): number {
    return this.#options.maxLagMs + this.#options.checkMs + Math.max(this.#options.checkMs, 1000);
  }

  /** Opens a pool per replica (lazily connecting) and starts checking; none is used before its first good check. */
  static async open(options: ReadReplicaOptions): Promise<ReadReplicas> {
    const replicas = await Promise.all(
      options.urls.map(async (url) => ({
        name: replicaName(url),
        handle: await connect({ ...options.connection, databaseUrl: url, applicationName: REPLICA_APPLICATION_NAME }),
        checker: await connect({
          ...options.connection,
          databaseUrl: url,
          poolSize: 1,
          applicationName: REPLICA_CHECK_APPLICATION_NAME,
        }),
        usable: false,
        reason: 'not checked yet',
        lagMs: undefined,
        checking: false,
      })),
    );
    const routing = new ReadReplicas(options, replicas);
    routing.#schedule(0);
    return routing;
  }

  readDb(): Db {
    const usable = this.#replicas.filter((r) => r.usable);
    if (usable.length === 0) return this.#primary;
    return usable[this.#next++ % usable.length]!.handle.db;
  }

  async read<T>(run: (db: Db) => Promise<T>): Promise<T> {
    const db = this.readDb();
    const replica = this.#replicas.find((r) => r.handle.db === db);
    if (!replica) {
      this.#reads.inc({ target: 'primary' });
      return run(db);
    }
    try {
      const result = await run(db);
      this.#reads.inc({ target: 'replica' });
      return result;
    } catch (error) {
      if (!isDatabaseUnavailable(error) && (error as { code?: unknown } | null)?.code !== RECOVERY_CONFLICT)
        throw error;
      this.#fallbacks.inc({ replica: replica.name });
      this.#mark(replica, false, `a read failed: ${(error as Error).message}`);
      this.#reads.inc({ target: 'primary' });
      return run(this.#primary);
    }
  }

  /** Each replica's state, for /metrics and the tests. */
  states(): { name: string; usable: boolean; reason: string; lagMs: number | undefined }[] {
    return this.#replicas.map(({ name, usable, reason, lagMs }) => ({ name, usable, reason, lagMs }));
  }

  /** Adds the replicas' gauges and counters to the process's registry (served by GET /metrics). */
  registerMetrics(registry: Registry): void {
    const states = () => this.states();
    new Gauge({
      name: 'db_replica_up',
      help: 'Read replica in use (1) or skipped (0: down, not a standby, or lagging past DATABASE_REPLICA_MAX_LAG_MS)',
      labelNames: ['replica'] as const,
      registers: [registry],
      collect() {
        for (const state of states()) this.set({ replica: state.name }, state.usable ? 1 : 0);
      },
    });
    new Gauge({
      name: 'db_replica_lag_seconds',
      help: 'How far each read replica was behind the primary at its last check (to within one check interval)',
      labelNames: ['replica'] as const,
      registers: [registry],
      collect() {
        for (const state of states())
          if (state.lagMs !== undefined) this.set({ replica: state.name }, state.lagMs / 1000);
      },
    });
    registry.registerMetric(this.#reads);
    registry.registerMetric(this.#fallbacks);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await Promise.all(this.#replicas.flatMap((r) => [r.handle.close(), r.checker.close()]));
  }

  #schedule(afterMs: number): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => void this.#checkAll().finally(() => this.#schedule(this.#options.checkMs)), afterMs);
    this.#timer.unref();
  }

  async #checkAll(): Promise<void> {
    // The primary's position first: a replica that has replayed up to it afterwards is current.
    const primary = await within(
      sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(this.#primary),
      this.#options.checkMs,
    ).catch(() => undefined);
    if (primary) this.#positions.record(Date.now(), parseLsn(primary.rows[0]!.lsn));
    await Promise.all(this.#replicas.filter((r) => !r.checking).map((r) => this.#check(r, primary !== undefined)));
  }

  async #check(replica: Replica, sampled: boolean): Promise<void> {
    replica.checking = true;
    try {
      const { rows } = await within(
        sql<{ standby: boolean; replayed: string | null }>`
          select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as replayed`.execute(
          replica.checker.db,
        ),
        Math.max(this.#options.checkMs, 1000),
      );
      const { standby, replayed } = rows[0]!;
      if (!standby || replayed === null) return this.#mark(replica, false, 'not a standby (promoted?)');
      // Without a fresh primary position (the primary unreachable) the last known lag stands.
      if (sampled) replica.lagMs = this.#positions.lagMs(parseLsn(replayed), Date.now());
      if (replica.lagMs === undefined) return this.#mark(replica, false, 'lag not known yet');
      if (replica.lagMs > this.#options.maxLagMs)
        return this.#mark(replica, false, `lagging ${replica.lagMs} ms behind the primary`);
      this.#mark(replica, true, 'in use');
    } catch (error) {
      this.#mark(replica, false, `does not answer: ${(error as Error).message}`);
    } finally {
      replica.checking = false;
    }
  }

  #mark(replica: Replica, usable: boolean, reason: string): void {
    const changed = replica.usable !== usable || (replica.reason === 'not checked yet' && !usable);
    replica.usable = usable;
    replica.reason = reason;
    if (!changed) return;
    const fields = { replica: replica.name, lag_ms: replica.lagMs };
    if (usable) this.#options.logger?.info(fields, 'read replica in use');
    else this.#options.logger?.warn({ ...fields, reason }, 'read replica skipped; its reads go to the primary');
  }
}

/** A check's own deadline: a frozen replica is skipped at once (its query ends later at the pool's query timeout). */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function replicaName(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}
