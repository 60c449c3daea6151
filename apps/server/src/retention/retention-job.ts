import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import { advisoryLockKey } from '../db/advisory-lock.js';
import type { Db } from '../db/connect.js';
import type { Clock } from '../lib/clock.js';
import { retentionDeletedCounter } from './retention-metrics.js';
import { RETENTION_RULES, type RetentionCutoffs, type RetentionRule } from './retention-rules.js';

export interface RetentionJobOptions {
  db: Db;
  clock: Clock;
  /** Delivered webhook events, their deliveries and attempts are deleted this many days after the event. */
  webhookRetentionDays: number;
  deleted?: Counter<'table'>;
  logger?: Pick<Logger, 'info' | 'error'>;
  rules?: RetentionRule[];
  /** Rows per delete statement: small, so no statement holds its row locks or WAL for long. */
  batchSize?: number;
  /** Pause between two batches, so the job never takes the database from the requests. */
  pauseMs?: number;
  /** How often a run starts. */
  intervalMs?: number;
  /**
   * How long after a run the availability changes of the transactions that had finished by then may go: far
   * longer than a listener goes without reading the log (it is reopened from scratch after seconds).
   */
  changeLogGraceMs?: number;
}

export interface RetentionJob {
  start(): void;
  /** Stops between two batches and resolves once the current one has finished. */
  stop(): Promise<void>;
  /** One run over every rule, each to its last expired row; resolves the rows deleted per table. */
  runOnce(): Promise<Record<string, number>>;
}

/** Texts that name what is locked (db/advisory-lock.ts): one retention run at a time across processes. */
const LOCK = advisoryLockKey('retention');

/**
 * Deletes expired rows (retention-rules.ts) in small batches, a pause between them. Every server process runs
 * the job, and each batch takes a transaction-scoped advisory lock first: a process that cannot take it ends its
 * run, as another process is deleting, so one process deletes at a time. A batch deletes by primary key the rows
 * it selected FOR UPDATE SKIP LOCKED: a row a request holds is left to the next run instead of waited for.
 */
export function createRetentionJob(options: RetentionJobOptions): RetentionJob {
  const { db, clock } = options;
  const rules = options.rules ?? RETENTION_RULES;
  const batchSize = options.batchSize ?? 500;
  const pauseMs = options.pauseMs ?? 200;
  const intervalMs = options.intervalMs ?? 3_600_000;
  const deleted = options.deleted ?? retentionDeletedCounter();

  let running = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> | undefined;
  let wake: (() => void) | undefined;

  /** One batch of `rule`: the rows deleted, or undefined when another process holds the lock. */
  async function batch(rule: RetentionRule, cutoffs: RetentionCutoffs): Promise<number | undefined> {
    const table = sql.table(rule.table);
    const key = sql.ref(rule.key);
    const { rows } = await sql<{ locked: boolean; deleted: number }>`
      with lock as (select pg_try_advisory_xact_lock(${LOCK}) as locked),
      batch as (
        select ${sql.ref(`t.${rule.key}`)} as key from ${table} t, lock
        where lock.locked and ${rule.expired(cutoffs)}
        limit ${batchSize}
        for update of t skip locked
      ),
      gone as (delete from ${table} using batch where ${table}.${key} = batch.key returning 1)
      select (select locked from lock) as locked, (select count(*)::int from gone) as deleted
    `.execute(db);
    const row = rows[0]!;
    return row.locked ? row.deleted : undefined;
  }

  const changeLogGraceMs = options.changeLogGraceMs ?? 60_000;
  /**
   * The oldest transaction still running at an earlier run, and when that was: changes of transactions below it
   * are deleted once it is at least changeLogGraceMs old (db/change-log.ts reads changes by transaction).
   */
  let horizon: { xmin: string; at: number } | undefined;

  async function runOnce(): Promise<Record<string, number>> {
    const now = clock.now();
    const { rows } = await sql<{
      xmin: string;
    }>`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`.execute(db);
    const asOf = performance.now();
    const settled = horizon && asOf - horizon.at >= changeLogGraceMs ? horizon.xmin : undefined;
    if (!horizon || settled !== undefined) horizon = { xmin: rows[0]!.xmin, at: asOf };
    const cutoffs: RetentionCutoffs = {
      now,
      webhooksBefore: now.subtract({ hours: options.webhookRetentionDays * 24 }),
      changesFinishedBefore: settled,
    };
    const totals: Record<string, number> = {};
    for (const rule of rules) {
      let total = 0;
      for (;;) {
        if (stopping) return totals;
        const n = await batch(rule, cutoffs);
        if (n === undefined) return totals;
        totals[rule.table] = total += n;
        deleted.inc({ table: rule.table }, n);
        if (n < batchSize) break;
        await pause(pauseMs);
      }
    }
    if (Object.values(totals).some((n) => n > 0)) options.logger?.info({ deleted: totals }, 'retention run');
    return totals;
  }

  function pause(ms: number) {
    return new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  function schedule(ms: number) {
    timer = setTimeout(() => {
      current = runOnce()
        .catch((error: unknown) => options.logger?.error({ err: error }, 'retention run failed'))
        .finally(() => {
          current = undefined;
          if (running) schedule(intervalMs);
        });
    }, ms);
    timer.unref();
  }

  return {
    start() {
      if (running) return;
      running = true;
      // The first run soon after start, not at once: the process has just become ready.
      schedule(Math.min(intervalMs, 60_000));
    },
    async stop() {
      running = false;
      stopping = true;
      clearTimeout(timer);
      wake?.();
      await current;
    },
    runOnce,
  };
}
