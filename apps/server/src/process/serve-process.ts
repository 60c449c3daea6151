import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { createApp } from '../app.js';
import { AvailabilityCache } from '../availability/availability-cache.js';
import { AvailabilityPool } from '../availability/availability-pool.js';
import { KeyVault } from '../auth/api-key.js';
import { ApiKeyCache } from '../auth/api-key-cache.js';
import { DeskFeed } from '../dashboard/desk-feed.js';
import { serveOperatorCommands } from '../cli/operator-socket.js';
import type { Config } from '../config/config.js';
import { connect, type DatabaseHandle } from '../db/connect.js';
import { migrateDatabase } from '../db/migrate-database.js';
import { ReadReplicas } from '../db/read-replicas.js';
import { Lifecycle } from '../health/lifecycle.js';
import { startHttpServer } from '../http/http-server.js';
import { Metrics } from '../metrics/metrics.js';
import { systemClock } from '../lib/clock.js';
import { createRetentionJob } from '../retention/retention-job.js';
import { retentionDeletedCounter } from '../retention/retention-metrics.js';
import { createWebhookEngine, WebhookMetrics } from '../webhooks/index.js';
import { ErrorText } from '@spa/contract';
import { issueMissingTestKeys } from '../keys/test-keys.js';
import { printDemoKey } from './demo-banner.js';
import { prepareWhenReachable } from './prepare-database.js';
import { onStop } from './stop-signals.js';

/** The shortest time a shutdown gets to close what it holds, whatever SHUTDOWN_TIMEOUT_MS says. */
const MIN_SHUTDOWN_DEADLINE_MS = 500;

/**
 * One server process: listens at once (`/healthz` 200, `/readyz` and the API 503 until the database is
 * migrated), prepares the database as soon as it can be reached, and drains on SIGTERM or SIGINT.
 */
export async function serveProcess(config: Config, logger: Logger): Promise<void> {
  // The port first: a port in use fails the start at once, before seconds spent opening the database. Until the
  // app exists every request is answered 503 (starting).
  const served: { app?: RequestListener } = {};
  const http = await startHttpServer((req, res) => (served.app ? served.app(req, res) : answerStarting(req, res)), {
    port: config.port,
    maxConnections: config.maxConnections,
    logger,
  });
  // The one key vault of the process: the API, webhook delivery and operator commands share it.
  const vault = new KeyVault(config.keyEncryptionKey);
  const database = await connect({
    databaseUrl: config.databaseUrl,
    listenUrl: config.databaseListenUrl,
    dataDir: config.dataDir,
    demoData: config.demoData,
    poolSize: config.dbPoolSize,
    statementTimeoutMs: config.statementTimeoutMs,
    acquireTimeoutMs: config.dbAcquireTimeoutMs,
    queryTimeoutMs: config.dbQueryTimeoutMs,
    preparedStatements: config.preparedStatements,
    onConnectionError: (error) => logger.warn({ err: error }, 'database connection lost; the pool reconnects'),
    onWarning: (fields, message) => logger.warn(fields, message),
  });
  const replicas = await openReplicas(config, database, logger);
  const lifecycle = new Lifecycle('starting');
  const metrics = new Metrics({ pool: database.pool });
  replicas?.registerMetrics(metrics.registry);
  const apiKeys = await ApiKeyCache.start(database, logger);
  const availabilityCache =
    config.availabilityCacheBytes > 0
      ? await AvailabilityCache.start(database, { maxBytes: config.availabilityCacheBytes }, logger)
      : undefined;
  const deskFeed = await DeskFeed.start(database);
  const availabilityPool =
    config.availabilityThreads > 0
      ? // The workers follow the app's response policy (RESPONSE_VALIDATION), as every other answer does.
        new AvailabilityPool({ threads: config.availabilityThreads, logger, validate: config.responseValidation })
      : undefined;
  const app = createApp({
    apiKeys,
    db: database.db,
    reads: replicas,
    clock: systemClock,
    vault,
    config,
    logger,
    lifecycle,
    metrics,
    pool: database.pool,
    availabilityPool,
    availabilityCache,
    deskFeed,
    webhooks: config.webhooks,
  });
  served.app = app;
  logger.info({ port: http.port, pid: process.pid }, 'listening; preparing the database');

  let operator: { close(): Promise<void> } | undefined;
  // Webhook delivery and the pending timeout run in every server process (claims keep them from colliding);
  // started once the database is prepared.
  const webhooks = createWebhookEngine({
    db: database.db,
    clock: systemClock,
    vault,
    config: config.webhooks,
    logger,
    metrics: new WebhookMetrics(metrics.registry),
    soleProcess: database.kind === 'pglite',
  });
  // Expired rows deleted in small batches; every process runs it, one at a time deletes (retention-job.ts).
  const retention = createRetentionJob({
    db: database.db,
    clock: systemClock,
    webhookRetentionDays: config.webhookRetentionDays,
    deleted: retentionDeletedCounter(metrics.registry),
    logger,
  });
  let stopping: Promise<void> | undefined;
  const shutdown = (signal: string) => {
    stopping ??= (async () => {
      logger.info({ signal, timeout_ms: config.shutdownTimeoutMs }, 'shutting down: draining connections');
      // Whatever still waits past the timeout (a frozen database that never says goodbye), the process leaves.
      setTimeout(
        () => {
          logger.error({ timeout_ms: config.shutdownTimeoutMs }, 'shutdown timeout: leaving with work still open');
          process.exit(1);
        },
        Math.max(config.shutdownTimeoutMs, MIN_SHUTDOWN_DEADLINE_MS),
      ).unref();
      lifecycle.beginDraining();
      // The desk pages' event streams never end by themselves: closed now, they would hold the drain open.
      deskFeed.endStreams();
      // Webhook attempts in flight finish (or are left to their lease) while the HTTP connections drain.
      const stopWebhooks = webhooks.stop().catch((error: unknown) => logger.warn({ err: error }, 'stopping webhooks'));
      const stopRetention = retention
        .stop()
        .catch((error: unknown) => logger.warn({ err: error }, 'stopping retention'));
      // The last part of the timeout is kept for closing the database and the rest.
      const drained = await http.drain(config.shutdownTimeoutMs - Math.min(1000, config.shutdownTimeoutMs / 4));
      await stopWebhooks;
      await stopRetention;
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
      await availabilityCache?.close();
      await deskFeed.close();
      await replicas?.close().catch((error: unknown) => logger.warn({ err: error }, 'closing the replicas failed'));
      await database.close().catch((error: unknown) => logger.warn({ err: error }, 'closing the database failed'));
      if (!drained) logger.error('shutdown timeout: connections still open were cut');
      logger.info({ drained }, 'stopped');
      process.exit(drained ? 0 : 1);
    })();
  };
  onStop(shutdown);

  const prepared = await prepareWhenReachable(
    async () => {
      await migrateDatabase(config, database);
      if (database.kind === 'pglite' && config.demoData) await printDemoKey(database.db, vault, config.publicUrl);
      const testKeys = await issueMissingTestKeys(database.db, vault);
      if (testKeys.length) logger.info({ key_ids: testKeys }, 'issued the test keys organisations lacked');
    },
    logger,
    () => stopping !== undefined,
  );
  // A stop during the migrations lets them finish (each is a transaction), then starts nothing more.
  if (!prepared || stopping) return;
  // The embedded database lives in this process: operator commands (pnpm spa) reach it through this socket.
  if (database.kind === 'pglite') {
    operator = await serveOperatorCommands({
      dataDir: config.dataDir,
      context: {
        db: database.db,
        vault,
        publicUrl: config.publicUrl,
        pglite: database.pglite,
        dataDir: config.dataDir,
      },
      logger,
    });
  }
  if (stopping) return;
  webhooks.start();
  retention.start();
  lifecycle.markReady();
  logger.info({ url: config.publicUrl, database: database.kind, pid: process.pid }, 'partner booking API listening');
}

/** While the database opens: the process runs (`/healthz`), nothing else is ready yet. */
function answerStarting(req: IncomingMessage, res: ServerResponse) {
  const json = (status: number, body: object, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const path = req.url?.split('?')[0];
  if (path === '/healthz') return json(200, { status: 'ok' });
  if (path === '/readyz') return json(503, { status: 'unavailable' });
  json(503, { error: ErrorText.ServiceUnavailable, request_id: randomUUID() }, { 'Retry-After': '2' });
}

/** DATABASE_REPLICA_URL's replicas, each pool hardened as the primary's; none without the variable. */
async function openReplicas(
  config: Config,
  database: DatabaseHandle,
  logger: Logger,
): Promise<ReadReplicas | undefined> {
  if (config.databaseReplicaUrls.length === 0 || database.kind !== 'postgres') return undefined;
  return ReadReplicas.open({
    primary: database.db,
    urls: config.databaseReplicaUrls,
    connection: {
      poolSize: config.dbPoolSize,
      statementTimeoutMs: config.statementTimeoutMs,
      acquireTimeoutMs: config.dbAcquireTimeoutMs,
      queryTimeoutMs: config.dbQueryTimeoutMs,
      preparedStatements: config.preparedStatements,
      onConnectionError: (error) => logger.warn({ err: error }, 'replica connection lost; the pool reconnects'),
    },
    maxLagMs: config.replicaMaxLagMs,
    checkMs: config.replicaCheckMs,
    logger,
  });
}
