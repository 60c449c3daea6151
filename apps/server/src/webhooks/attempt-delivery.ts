import type { Logger } from 'pino';
import { Temporal } from 'temporal-polyfill';
import type { KeyVault } from '../auth/api-key.js';
import type { Db } from '../db/connect.js';
import type { Clock } from '../lib/clock.js';
import { instantFromDb } from '../lib/instant.js';
import { type AttemptRecord, type ClaimedDelivery, claimDelivery, settleAttempts } from './deliveries.repository.js';
import type { WebhookMetrics } from './metrics.js';
import { checkWebhookTarget, parseWebhookUrl } from './safe-target.js';
import { type AttemptOutcome, sendAttempt } from './send-attempt.js';
import { signWebhook } from './signature.js';
import type { WebhookConfig } from '../config/config.js';

/** An endpoint that has not succeeded for this long is disabled. */
export const DISABLE_AFTER = Temporal.Duration.from({ hours: 5 * 24 });

/** What one attempt needs: the clock, the secrets' vault, the retry schedule and address rules. */
export interface AttemptDeps {
  clock: Clock;
  vault: KeyVault;
  config: WebhookConfig;
  metrics: WebhookMetrics;
  logger?: Pick<Logger, 'warn'> | undefined;
  attemptTimeoutMs: number;
}

/** One attempt, without touching the database: its outcome is settled with others (settleAttempts). */
export async function attemptDelivery(
  deps: AttemptDeps,
  claim: ClaimedDelivery,
  token: string,
): Promise<AttemptRecord> {
  const { clock, vault, config, metrics } = deps;
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
    outcome = await sendAttempt(target, headers, claim.body, deps.attemptTimeoutMs);
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
    deps.logger?.warn(
      { event_id: claim.event_id, endpoint_id: claim.endpoint_id, attempt: claim.attempts, error: outcome.error },
      'webhook attempt failed',
    );
  }
  return {
    deliveryId: claim.id,
    endpointId: claim.endpoint_id,
    attempt: claim.attempt_base + claim.attempts,
    manual: claim.manual,
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

/**
 * How long a claim holds its delivery: longer than an attempt, so its holder always settles it first. An attempt
 * may wait for its socket and then for its answer, each bounded by the attempt timeout.
 */
export function leaseSecondsFor(attemptTimeoutMs: number): number {
  return Math.ceil((2 * attemptTimeoutMs) / 1000) + 5;
}

/**
 * Makes an attempt of one queued delivery now, in this request, through the same claim, signature, send and
 * settlement as the delivery loop (so the log and the retries are the loop's). `token` is the lease the delivery
 * was queued under, if any. Undefined when the delivery is not pending or another claim holds it.
 */
export async function deliverNow(
  deps: AttemptDeps & { db: Db },
  delivery: { id: number; token: string },
): Promise<AttemptRecord | undefined> {
  const claim = await claimDelivery(deps.db, {
    id: delivery.id,
    now: deps.clock.now(),
    leaseSeconds: leaseSecondsFor(deps.attemptTimeoutMs),
    token: delivery.token,
  });
  if (!claim) return undefined;
  const record = await attemptDelivery(deps, claim, delivery.token);
  await settleAttempts(deps.db, [record], deps.clock.now().subtract(DISABLE_AFTER));
  return record;
}
