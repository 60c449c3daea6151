import type pg from 'pg';
import type { Logger } from 'pino';
import type { AvailabilityCache } from './availability/availability-cache.js';
import type { AvailabilityPool } from './availability/availability-pool.js';
import type { KeyVault } from './auth/api-key.js';
import type { ApiKeyLookup } from './auth/api-key-cache.js';
import type { Config } from './config/config.js';
import type { DeskFeed } from './dashboard/desk-feed.js';
import type { Db } from './db/connect.js';
import type { ReadRouting } from './db/read-replicas.js';
import type { Lifecycle } from './health/lifecycle.js';
import type { Metrics } from './metrics/metrics.js';
import type { Clock } from './lib/clock.js';
import type { WebhookConfig } from './config/config.js';

/** What createApp needs; tests pass their own database, clock and config. */
export interface AppDeps {
  db: Db;
  /** Where availability and catalogue reads go (read replicas, db/read-replicas.ts); without it, `db`. */
  reads?: ReadRouting | undefined;
  clock: Clock;
  /** The process's one key vault (API keys, webhook secrets), built from KEY_ENCRYPTION_KEY by its caller. */
  vault: KeyVault;
  /** Without `responseValidation`, every answer is checked against the contract (http/response-check.ts). */
  config: Pick<Config, 'rateLimitEnforced' | 'publicUrl'> &
    Partial<Pick<Config, 'metricsToken' | 'responseValidation' | 'publicUrlSet'>>;
  logger?: Logger;
  /** The PostgreSQL pool, when there is one: the rate limits count in its database, shared by every process. */
  pool?: pg.Pool | undefined;
  /** Starting, ready or draining (main.ts); an app built without one is ready. */
  lifecycle?: Lifecycle;
  metrics?: Metrics;
  /** How a request's key is found: the served process passes its ApiKeyCache; without one, a query each time. */
  apiKeys?: ApiKeyLookup;
  /** How long a request body may take after its headers (tests shorten it). */
  bodyDeadlineMs?: number;
  /** Worker threads for heavy availability answers; without one, every answer is computed on the event loop. */
  availabilityPool?: AvailabilityPool | undefined;
  /** Availability answers kept until the schedule changes; without one, each is read and computed again. */
  availabilityCache?: AvailabilityCache | undefined;
  /** The venue change notices the dashboard's desk page follows live; without it the page polls. */
  deskFeed?: DeskFeed | undefined;
  /** The dashboard's built files (default apps/dashboard/dist); tests point it elsewhere. */
  dashboardDir?: string;
  /** Webhook URL rules and retry schedule for the dashboard's endpoints; without it, from the environment. */
  webhooks?: WebhookConfig;
}

export interface RouteDeps {
  db: Db;
  /** Availability snapshots and catalogue reads (may be a replica); writes and booking decisions use `db`. */
  reads: ReadRouting;
  clock: Clock;
  vault: KeyVault;
  availabilityPool?: AvailabilityPool | undefined;
  availabilityCache?: AvailabilityCache | undefined;
  /** Whether answers are checked against the contract (the app's response policy), for bytes a route encodes. */
  validateResponses: boolean;
}
