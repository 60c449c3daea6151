import { Counter, Histogram, Registry } from 'prom-client';

/** Upper bounds (seconds) of the lag histogram: commit of the change to a receiver's 2xx. */
const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200];

/**
 * Figures of webhook delivery, registered in the registry `/metrics` serves (the server process passes its own);
 * without one they live in a private registry (tests, benchmarks).
 */
export class WebhookMetrics {
  readonly registry: Registry;
  /** Attempts answered with a 2xx. */
  readonly delivered: Counter;
  /** Attempts that failed (non-2xx, timeout, refused address, network error). */
  readonly attemptsFailed: Counter;
  /** Deliveries given up after the last retry (status failed). */
  readonly deliveriesFailed: Counter;
  readonly endpointsDisabled: Counter;
  /** Bookings moved to awaiting_therapist by the pending timeout. */
  readonly pendingTimeouts: Counter;
  readonly lag: Histogram;

  constructor(registry: Registry = new Registry()) {
    this.registry = registry;
    const registers = [registry];
    const counter = (name: string, help: string) => new Counter({ name, help, registers });
    this.delivered = counter('webhook_deliveries_succeeded_total', 'Webhook attempts answered with a 2xx');
    this.attemptsFailed = counter('webhook_attempts_failed_total', 'Webhook attempts that failed');
    this.deliveriesFailed = counter(
      'webhook_deliveries_failed_total',
      'Webhook deliveries given up after the last retry',
    );
    this.endpointsDisabled = counter(
      'webhook_endpoints_disabled_total',
      'Webhook endpoints disabled after 5 days of failures',
    );
    this.pendingTimeouts = counter('booking_pending_timeouts_total', 'Pending bookings moved to awaiting_therapist');
    this.lag = new Histogram({
      name: 'webhook_delivery_lag_seconds',
      help: 'From the change (its event) to its successful delivery',
      buckets: LAG_BUCKETS,
      registers,
    });
  }
}

/** The figures of an engine given none (a process that serves no /metrics). */
export const webhookMetrics = new WebhookMetrics();
