import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { KeyVault } from '../auth/api-key.js';
import { expirePendingBookings } from '../bookings/pending-timeout.js';
import type { Db } from '../db/connect.js';
import type { Clock } from '../lib/clock.js';
import {
  type AttemptRecord,
  type ClaimedDelivery,
  claimDueDeliveries,
  releaseAllLeases,
  settleAttempts,
} from './deliveries.repository.js';
import { webhookMetrics, type WebhookMetrics } from './metrics.js';
import { ATTEMPT_TIMEOUT_MS } from './send-attempt.js';
import { attemptDelivery, DISABLE_AFTER, leaseSecondsFor } from './attempt-delivery.js';
import type { WebhookConfig } from '../config/config.js';

export interface WebhookEngineOptions {
  db: Db;
  /** Decides when deliveries and pending timeouts are due (tests move it); webhook-timestamp is wall time. */
  clock: Clock;
  vault: KeyVault;
  config: WebhookConfig;
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
  metrics?: WebhookMetrics;
  /** How often to look for due deliveries when there was nothing to do. */
  pollIntervalMs?: number;
  /** How often the pending-timeout job runs. */
  timeoutJobIntervalMs?: number;
  /** Attempts in flight at most (claimed and sent concurrently). */
  batchSize?: number;
  /** A claim's lease: longer than an attempt, so a live process always settles its own claims first. */
  leaseSeconds?: number;
  attemptTimeoutMs?: number;
  /**
   * The database is this process's alone (the embedded one, behind its DATA_DIR lock): a lease found at start
   * was left by a process that died, so its delivery is due at once rather than when the lease lapses.
   */
  soleProcess?: boolean;
  /** How long stop() waits for attempts in flight; unfinished ones are retried by whoever claims them next. */
  stopGraceMs?: number;
}

export interface WebhookEngine {
  start(): void;
  /** Stops claiming, lets attempts in flight finish (within the grace period), then resolves. */
  stop(): Promise<void>;
  /** One pass of both jobs, for tests and the CLI: the pending timeout, then every due delivery. */
  runOnce(): Promise<{ timedOut: number; attempted: number }>;
}

/**
 * Delivery by the server process itself, on PostgreSQL and on the embedded database alike: a poll loop over the
 * outbox (claims by SKIP LOCKED under a lease, see deliveries.repository.ts), and the pending-timeout job on the
 * same loop. Hand-written rather than graphile-worker or pg-boss: both need LISTEN/NOTIFY and a pool of
 * connections, which the embedded PGlite (one connection, one process) does not offer.
 */
export function createWebhookEngine(options: WebhookEngineOptions): WebhookEngine {
  const { db, clock, vault, config } = options;
  const metrics = options.metrics ?? webhookMetrics;
  const pollIntervalMs = options.pollIntervalMs ?? 200;
  const timeoutJobIntervalMs = options.timeoutJobIntervalMs ?? 5_000;
  const batchSize = options.batchSize ?? 50;
  const attemptTimeoutMs = options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const leaseSeconds = options.leaseSeconds ?? leaseSecondsFor(attemptTimeoutMs);
  const stopGraceMs = options.stopGraceMs ?? 5_000;

  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let lastTimeoutRun = 0;
  let leasesReleased = !options.soleProcess;
  let inFlight = 0;
  /** Attempts finished and not yet written. */
  let finished: AttemptRecord[] = [];

  const attempt = (claim: ClaimedDelivery, token: string) =>
    attemptDelivery({ clock, vault, config, metrics, logger: options.logger, attemptTimeoutMs }, claim, token);

  /** Writes every finished attempt in one transaction. */
  async function settle() {
    const records = finished;
    finished = [];
    const disabled = await settleAttempts(db, records, clock.now().subtract(DISABLE_AFTER));
    metrics.endpointsDisabled.inc(disabled.length);
    for (const endpointId of disabled)
      options.logger?.warn({ endpoint_id: endpointId }, 'webhook endpoint disabled after 5 days of failures');
  }

  /** Claims up to `limit` due deliveries and starts their attempts; returns how many it claimed. */
  async function claimAndSend(limit: number, track: Promise<void>[] = []): Promise<number> {
    if (limit <= 0) return 0;
    const token = randomUUID();
    const claims = await claimDueDeliveries(db, { now: clock.now(), leaseSeconds, token, limit });
    for (const claim of claims) {
      inFlight++;
      track.push(
        attempt(claim, token).then((record) => {
          finished.push(record);
          inFlight--;
          wake?.();
        }),
      );
    }
    return claims.length;
  }

  async function expire(): Promise<number> {
    const moved = await expirePendingBookings(db, clock.now());
    metrics.pendingTimeouts.inc(moved);
    return moved;
  }

  /**
   * Pipelined: new claims do not wait for the attempts in flight, and finished attempts are written in one
   * transaction per turn, so a busy connection pool delays a batch once rather than once per delivery.
   */
  async function run() {
    while (running || inFlight > 0 || finished.length > 0) {
      let claimed = 0;
      try {
        if (finished.length) await settle();
        if (!leasesReleased) {
          const released = await releaseAllLeases(db);
          leasesReleased = true;
          if (released)
            options.logger?.info({ released }, 'webhook deliveries left by a stopped process are due again');
        }
        if (running && Date.now() - lastTimeoutRun >= timeoutJobIntervalMs) {
          lastTimeoutRun = Date.now();
          await expire();
        }
        if (running) claimed = await claimAndSend(batchSize - inFlight);
      } catch (error) {
        // The database away (restart, failover): keep going; the work is still in the outbox.
        options.logger?.error({ err: error }, 'webhook engine pass failed');
      }
      if (finished.length === 0 && (claimed === 0 || inFlight >= batchSize)) await sleep(pollIntervalMs);
    }
  }

  function sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      if (!running) return;
      running = false;
      wake?.();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([loop, new Promise((resolve) => (timer = setTimeout(resolve, stopGraceMs)))]);
      clearTimeout(timer);
    },
    async runOnce() {
      const timedOut = await expire();
      let attempted = 0;
      for (;;) {
        const track: Promise<void>[] = [];
        const n = await claimAndSend(batchSize, track);
        await Promise.all(track);
        await settle();
        if (n === 0) return { timedOut, attempted };
        attempted += n;
      }
    },
  };
}
