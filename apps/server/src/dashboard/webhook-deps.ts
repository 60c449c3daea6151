import { webhookMetrics } from '../webhooks/metrics.js';
import type { AttemptDeps } from '../webhooks/attempt-delivery.js';
import { ATTEMPT_TIMEOUT_MS } from '../webhooks/send-attempt.js';
import type { DashboardDeps } from './dashboard-deps.js';

/** What the dashboard's webhook areas use of the dashboard's deps. */
export type WebhookDeps = Pick<DashboardDeps, 'db' | 'clock' | 'vault' | 'webhooks'>;

/** An attempt from the dashboard (a test delivery) counts in the process's webhook metrics like the loop's. */
export function attemptDeps(deps: WebhookDeps): AttemptDeps {
  return {
    clock: deps.clock,
    vault: deps.vault,
    config: deps.webhooks,
    metrics: webhookMetrics,
    attemptTimeoutMs: ATTEMPT_TIMEOUT_MS,
  };
}
