import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import type { Temporal } from 'temporal-polyfill';
import { createApp } from '../src/app.js';
import { KeyVault } from '../src/auth/api-key.js';
import { ApiKeyCache } from '../src/auth/api-key-cache.js';
import type { AvailabilityCache } from '../src/availability/availability-cache.js';
import { AvailabilityPool } from '../src/availability/availability-pool.js';
import { loadConfig } from '../src/config/config.js';
import type { DatabaseHandle } from '../src/db/connect.js';
import { startHttpServer } from '../src/http/http-server.js';
import { createLogger } from '../src/logger.js';
import { Metrics } from '../src/metrics/metrics.js';

/**
 * The real app served as `pnpm start` serves it (src/process/serve-process.ts): the configuration a deployment
 * gets by default (rate limits off, response validation off), the production logger at `info` (its lines written
 * to /dev/null with the same synchronous writes stdout gets), process metrics on, the API-key cache listening for
 * changes, the availability worker pool, the production HTTP server; and the availability cache when given one
 * (serve-process.ts starts one unless AVAILABILITY_CACHE_MB=0; the benches that predate it measure without).
 */
export async function serveProductionLike(
  database: DatabaseHandle,
  now: Temporal.Instant,
  options: { availabilityCache?: AvailabilityCache } = {},
) {
  const config = loadConfig({ KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'), PUBLIC_URL: 'http://127.0.0.1' });
  const vault = new KeyVault(config.keyEncryptionKey);
  const logger = createLogger('info', pino.destination({ dest: '/dev/null', sync: true }));
  const apiKeys = await ApiKeyCache.start(database, logger);
  const availabilityPool = new AvailabilityPool({
    threads: config.availabilityThreads,
    logger,
    validate: config.responseValidation,
  });
  const app = createApp({
    apiKeys,
    availabilityPool,
    availabilityCache: options.availabilityCache,
    db: database.db,
    pool: database.pool,
    clock: { now: () => now },
    vault,
    config,
    logger,
    metrics: new Metrics({ pool: database.pool }),
  });
  const http = await startHttpServer(app, {
    port: 0,
    host: '127.0.0.1',
    maxConnections: config.maxConnections,
    logger,
  });
  return {
    base: `http://127.0.0.1:${http.port}`,
    vault,
    close: async () => {
      await http.drain(1000);
      await availabilityPool.close();
      await apiKeys.close();
      await options.availabilityCache?.close();
    },
  };
}
