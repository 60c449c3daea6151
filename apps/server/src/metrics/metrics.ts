import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus figures, one registry per app (tests build many apps in one process).
 * Other parts of the process add their own collectors to `registry` (webhook deliveries do, see
 * docs/guides/deploying.md "Metrics"): everything registered there is served by GET /metrics.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly bookingsCreated = new Counter({
    name: 'bookings_created_total',
    help: 'Bookings created through the API (201; idempotent replays are not counted)',
    registers: [this.registry],
  });

  readonly bookingsCancelled = new Counter({
    name: 'bookings_cancelled_total',
    help: 'Bookings cancelled through the API',
    registers: [this.registry],
  });

  constructor(options: { pool?: pg.Pool | undefined; defaultMetrics?: boolean } = {}) {
    // Process figures: CPU, memory, file descriptors, GC, and event-loop lag (nodejs_eventloop_lag_*).
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    const { pool } = options;
    if (pool) {
      new Gauge({
        name: 'db_pool_connections',
        help: 'PostgreSQL pool: open connections (total), idle ones, and queries waiting for one',
        labelNames: ['state'] as const,
        registers: [this.registry],
        collect() {
          this.set({ state: 'total' }, pool.totalCount);
          this.set({ state: 'idle' }, pool.idleCount);
          this.set({ state: 'waiting' }, pool.waitingCount);
        },
      });
    }
  }
}
