import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';

/**
 * WEB_CONCURRENCY > 1: this process only supervises. It forks that many server processes sharing the port
 * (node:cluster), starts a new one when one dies, and on SIGTERM passes it on and exits once all have
 * drained: 0 if every one stopped cleanly. State lives in PostgreSQL, so the workers are interchangeable.
 */
export function superviseWorkers(config: Config, logger: Logger): void {
  let stopping = false;
  let failed = false;
  const fork = () => cluster.fork();
  for (let i = 0; i < config.webConcurrency; i++) fork();
  logger.info({ workers: config.webConcurrency, pid: process.pid }, 'supervising server processes');

  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    if (stopping) {
      if (code !== 0) failed = true;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(failed ? 1 : 0);
      return;
    }
    logger.error({ worker_pid: worker.process.pid, code, signal }, 'server process died; starting another');
    // A second apart, so a process that cannot start (port taken) does not spin.
    setTimeout(() => !stopping && fork(), 1000).unref();
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping server processes');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    // The workers keep their own SHUTDOWN_TIMEOUT_MS; this only guards against one that hangs past it.
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs + 5000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
