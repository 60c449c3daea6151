import cluster from 'node:cluster';
import { loadConfig } from './config/config.js';
import { PortInUseError } from './http/http-server.js';
import { createLogger } from './logger.js';
import { superviseWorkers } from './process/cluster-primary.js';
import { serveProcess } from './process/serve-process.js';
import { stopRequested, watchStopSignals } from './process/stop-signals.js';

watchStopSignals();

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
  else await serveProcess(config, logger);
} catch (error) {
  // A start cut short by SIGTERM (the database closed under the migrations) is a stop: the shutdown exits 0.
  if (stopRequested()) {
    logger.info({ reason: error instanceof Error ? error.message : String(error) }, 'start abandoned: stopping');
    // The shutdown exits once it has closed what was open; this is for a start that failed before it had one.
    setTimeout(() => process.exit(0), 2_000);
  } else {
    // A port in use is the operator's to fix, said in one sentence: no stack of the listen call.
    if (error instanceof PortInUseError) logger.fatal(error.message);
    else logger.fatal({ err: error }, 'could not start');
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
