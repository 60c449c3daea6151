/** Upper bounds (seconds) of the lag histogram: commit of the change to a receiver's 2xx. */
const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200];

/**
 * Counters of webhook delivery in this process, for the metrics endpoint to expose (`prometheus()` writes
 * them in the text format). Plain numbers: no registry is assumed.
 */
export class WebhookMetrics {
  /** Attempts answered with a 2xx. */
  delivered = 0;
  /** Attempts that failed (non-2xx, timeout, refused address, network error). */
  attemptsFailed = 0;
  /** Deliveries given up after the last retry (status failed). */
  deliveriesFailed = 0;
  endpointsDisabled = 0;
  /** Bookings moved to awaiting_therapist by the pending timeout. */
  pendingTimeouts = 0;
  readonly lagBuckets = LAG_BUCKETS.map(() => 0);
  lagCount = 0;
  lagSum = 0;

  observeLag(seconds: number) {
    LAG_BUCKETS.forEach((bound, i) => {
      if (seconds <= bound) this.lagBuckets[i]!++;
    });
    this.lagCount++;
    this.lagSum += seconds;
  }

  prometheus(): string {
    const counter = (name: string, help: string, value: number) =>
      `# HELP ${name} ${help}\n# TYPE ${name} counter\n${name} ${value}\n`;
    return [
      counter('webhook_deliveries_succeeded_total', 'Webhook attempts answered with a 2xx', this.delivered),
      counter('webhook_attempts_failed_total', 'Webhook attempts that failed', this.attemptsFailed),
      counter(
        'webhook_deliveries_failed_total',
        'Webhook deliveries given up after the last retry',
        this.deliveriesFailed,
      ),
      counter(
        'webhook_endpoints_disabled_total',
        'Webhook endpoints disabled after 5 days of failures',
        this.endpointsDisabled,
      ),
      counter('booking_pending_timeouts_total', 'Pending bookings moved to awaiting_therapist', this.pendingTimeouts),
      '# HELP webhook_delivery_lag_seconds From the change to its successful delivery\n' +
        '# TYPE webhook_delivery_lag_seconds histogram\n' +
        LAG_BUCKETS.map((b, i) => `webhook_delivery_lag_seconds_bucket{le="${b}"} ${this.lagBuckets[i]}\n`).join('') +
        `webhook_delivery_lag_seconds_bucket{le="+Inf"} ${this.lagCount}\n` +
        `webhook_delivery_lag_seconds_sum ${this.lagSum}\nwebhook_delivery_lag_seconds_count ${this.lagCount}\n`,
    ].join('');
  }
}

/** The process's counters. */
export const webhookMetrics = new WebhookMetrics();
