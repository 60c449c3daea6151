import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { Temporal } from 'temporal-polyfill';
import type { KeyVault } from '../auth/api-key.js';
import type { Db } from '../db/connect.js';
import type { Clock } from '../lib/clock.js';
import { instantFromDb } from '../lib/instant.js';
import {
  type AttemptRecord,
  type ClaimedDelivery,
  claimDueDeliveries,
  releaseAllLeases,
  settleAttempts,
} from './deliveries.repository.js';
import { webhookMetrics, type WebhookMetrics } from './metrics.js';
import { expirePendingBookings } from './pending-timeout.js';
import { checkWebhookTarget, parseWebhookUrl } from './safe-target.js';
import { ATTEMPT_TIMEOUT_MS, type AttemptOutcome, sendAttempt, WEBHOOK_SOCKETS } from './send-attempt.js';
import { signWebhook } from './signature.js';
import type { WebhookConfig } from './webhook-config.js';

/** An endpoint that has not succeeded for this long is disabled (DECISIONS "Webhooks"). */
const DISABLE_AFTER = Temporal.Duration.from({ hours: 5 * 24 });

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
  // As many attempts at once as there are sockets: one waiting for a socket would spend its 10 s there.
  const batchSize = options.batchSize ?? WEBHOOK_SOCKETS;
  const attemptTimeoutMs = options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
  // An attempt may wait for its socket and then for its answer, each bounded by the attempt timeout.
  const leaseSeconds = options.leaseSeconds ?? Math.ceil((2 * attemptTimeoutMs) / 1000) + 5;
  const stopGraceMs = options.stopGraceMs ?? 5_000;

  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let lastTimeoutRun = 0;
  let leasesReleased = !options.soleProcess;
  let inFlight = 0;
  /** Attempts finished and not yet written. */
  let finished: AttemptRecord[] = [];

  /** One attempt, without touching the database: its outcome is settled with others (settle). */
  async function attempt(claim: ClaimedDelivery, token: string): Promise<AttemptRecord> {
    const startedAt = clock.now();
    let outcome: AttemptOutcome;
    try {
      const target = await checkWebhookTarget(
        parseWebhookUrl(claim.url, config.allowPrivateNetworks),
        config.allowPrivateNetworks,
      );
      const secrets = [vault.decrypt(claim.secret_encrypted, claim.endpoint_id)];
      if (
        claim.previous_secret_encrypted &&
        claim.previous_secret_expires_at &&
        Temporal.Instant.compare(instantFromDb(claim.previous_secret_expires_at), startedAt) > 0
      )
        secrets.push(vault.decrypt(claim.previous_secret_encrypted, claim.endpoint_id));
      // The receiver compares webhook-timestamp with its own clock: wall time, not the scheduling clock.
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = {
        'webhook-id': claim.event_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(secrets, claim.event_id, timestamp, claim.body),
      };
      outcome = await sendAttempt(target, headers, claim.body, attemptTimeoutMs);
    } catch (error) {
      outcome = {
        ok: false,
        statusCode: null,
        responseBody: null,
        error: error instanceof Error ? error.message : String(error),
        durationMs: 0,
      };
    }
    const finishedAt = clock.now();
    const delay = config.retrySchedule[claim.attempts - 1];
    if (outcome.ok) {
      metrics.delivered.inc();
      if (claim.attempts === 1)
        metrics.lag.observe(finishedAt.since(instantFromDb(claim.event_created_at)).total('seconds'));
    } else {
      metrics.attemptsFailed.inc();
      if (delay === undefined) metrics.deliveriesFailed.inc();
      options.logger?.warn(
        { event_id: claim.event_id, endpoint_id: claim.endpoint_id, attempt: claim.attempts, error: outcome.error },
        'webhook attempt failed',
      );
    }
    return {
      deliveryId: claim.id,
      endpointId: claim.endpoint_id,
      attempt: claim.attempts,
      token,
      startedAt,
      finishedAt,
      durationMs: outcome.durationMs,
      statusCode: outcome.statusCode,
      responseBody: outcome.responseBody,
      error: outcome.error,
      ok: outcome.ok,
      retryAt: outcome.ok || delay === undefined ? null : finishedAt.add({ seconds: delay }),
    };
  }

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
