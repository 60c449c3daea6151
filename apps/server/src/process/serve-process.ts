import type { Logger } from 'pino';
import { createApp } from '../app.js';
import { AvailabilityPool } from '../availability/availability-pool.js';
import { KeyVault } from '../auth/api-key.js';
import { ApiKeyCache } from '../auth/api-key-cache.js';
import { serveOperatorCommands } from '../cli/operator-socket.js';
import type { Config } from '../config/config.js';
import { connect, type DatabaseHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { Lifecycle } from '../health/lifecycle.js';
import { startHttpServer } from '../http/http-server.js';
import { Metrics } from '../metrics/metrics.js';
import { systemClock } from '../lib/clock.js';
import { createWebhookEngine, loadWebhookConfig, WebhookMetrics } from '../webhooks/index.js';
import { printDemoKey } from './demo-banner.js';
import { prepareWhenReachable } from './prepare-database.js';

/**
 * One server process: listens at once (`/healthz` 200, `/readyz` and the API 503 until the database is
 * migrated), prepares the database as soon as it can be reached, and drains on SIGTERM or SIGINT.
 */
export async function serveProcess(config: Config, logger: Logger): Promise<void> {
  const webhookConfig = loadWebhookConfig(process.env);
  const database = await connect({
    databaseUrl: config.databaseUrl,
    listenUrl: config.databaseListenUrl,
    dataDir: config.dataDir,
    poolSize: config.dbPoolSize,
    statementTimeoutMs: config.statementTimeoutMs,
    acquireTimeoutMs: config.dbAcquireTimeoutMs,
    onConnectionError: (error) => logger.warn({ err: error }, 'database connection lost; the pool reconnects'),
  });
  const lifecycle = new Lifecycle('starting');
  const metrics = new Metrics({ pool: database.pool });
  const apiKeys = await ApiKeyCache.start(database, logger);
  const availabilityPool =
    config.availabilityThreads > 0
      ? // The workers follow the app's response policy (RESPONSE_VALIDATION), as every other answer does.
        new AvailabilityPool({ threads: config.availabilityThreads, logger, validate: config.responseValidation })
      : undefined;
  const app = createApp({
    apiKeys,
    db: database.db,
    clock: systemClock,
    config,
    logger,
    lifecycle,
    metrics,
    pool: database.pool,
    availabilityPool,
    webhooks: webhookConfig,
  });
  const http = await startHttpServer(app, { port: config.port, maxConnections: config.maxConnections, logger });
  logger.info({ port: http.port, pid: process.pid }, 'listening; preparing the database');

  let operator: { close(): Promise<void> } | undefined;
  // Webhook delivery and the pending timeout run in every server process (claims keep them from colliding);
  // started once the database is prepared.
  const webhooks = createWebhookEngine({
    db: database.db,
    clock: systemClock,
    vault: new KeyVault(config.keyEncryptionKey),
    config: webhookConfig,
    logger,
    metrics: new WebhookMetrics(metrics.registry),
    soleProcess: database.kind === 'pglite',
  });
  let stopping: Promise<void> | undefined;
  const shutdown = (signal: string) => {
    stopping ??= (async () => {
      logger.info({ signal, timeout_ms: config.shutdownTimeoutMs }, 'shutting down: draining connections');
      lifecycle.beginDraining();
      // Webhook attempts in flight finish (or are left to their lease) while the HTTP connections drain.
      const stopWebhooks = webhooks.stop().catch((error: unknown) => logger.warn({ err: error }, 'stopping webhooks'));
      const drained = await http.drain(config.shutdownTimeoutMs);
      await stopWebhooks;
      // After the drain no request waits for a worker; a forced stop does not wait for a computation either.
      if (availabilityPool) {
        await availabilityPool
          .close({ force: !drained })
          .then(() => logger.info('availability workers closed'))
          .catch((error: unknown) => logger.warn({ err: error }, 'closing the availability workers failed'));
      }
      await operator
        ?.close()
        .catch((error: unknown) => logger.warn({ err: error }, 'closing the operator socket failed'));
      await apiKeys.close();
      await database.close().catch((error: unknown) => logger.warn({ err: error }, 'closing the database failed'));
      if (!drained) logger.error('shutdown timeout: connections still open were cut');
      logger.info({ drained }, 'stopped');
      process.exit(drained ? 0 : 1);
    })();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  const prepared = await prepareWhenReachable(
    async () => {
      await migrate(config, database);
      if (database.kind === 'pglite' && config.demoData) await printDemoKey(database.db, config);
    },
    logger,
    () => stopping !== undefined,
  );
  if (!prepared) return;
  // The embedded database lives in this process: operator commands (pnpm spa) reach it through this socket.
  if (database.kind === 'pglite') {
    operator = await serveOperatorCommands({
      dataDir: config.dataDir,
      context: { db: database.db, vault: new KeyVault(config.keyEncryptionKey), publicUrl: config.publicUrl },
      logger,
    });
  }
  webhooks.start();
  lifecycle.markReady();
  logger.info({ url: config.publicUrl, database: database.kind, pid: process.pid }, 'partner booking API listening');
}

/**
 * Migrations run on a connection of their own without the statement timeout: building an index on a large table
 * may take longer than any request should, and a deploy must not fail for it.
 */
async function migrate(config: Config, database: DatabaseHandle): Promise<void> {
  if (!config.databaseUrl) return migrateToLatest(database.db);
  const migrator = await connect({
    databaseUrl: config.databaseUrl,
    poolSize: 1,
    statementTimeoutMs: 0,
    acquireTimeoutMs: config.dbAcquireTimeoutMs,
  });
  try {
    await migrateToLatest(migrator.db);
  } finally {
    await migrator.close();
  }
}
