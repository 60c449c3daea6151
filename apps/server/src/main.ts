import cluster from 'node:cluster';
import { loadConfig } from './config/config.js';
import { claimDataDir } from './db/embedded-data-dir.js';
import { createLogger } from './logger.js';
import { superviseWorkers } from './process/cluster-primary.js';

/** Process entry: one server, or with WEB_CONCURRENCY > 1 on PostgreSQL a supervisor of that many. */
const logger = createLogger();

// A stray rejection (a library's promise nobody awaited when a connection died) is logged, not fatal.
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection'));

try {
  const config = loadConfig(process.env, cluster.isPrimary ? logger : undefined);
  if (cluster.isPrimary && config.webConcurrency > 1 && !config.databaseUrl) {
    logger.warn('WEB_CONCURRENCY is ignored on the embedded database, which one process owns; serving with one');
  }
  if (cluster.isPrimary && config.webConcurrency > 1 && config.databaseUrl) superviseWorkers(config, logger);
  else {
    // The embedded database's directory is claimed (on a first start, filled with a copy of the build's template
    // in the thread pool) while the server's modules load: the two took ~150 ms and ~350 ms one after the other.
    const claimedDataDir = config.databaseUrl
      ? undefined
      : claimDataDir(config.dataDir, (fields, message) => logger.warn(fields, message));
    claimedDataDir?.catch(() => undefined); // its failure is serveProcess's to report, once it awaits it
    const { serveProcess } = await import('./process/serve-process.js');
    await serveProcess(config, logger, claimedDataDir);
  }
} catch (error) {
  logger.fatal({ err: error }, 'could not start');
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
