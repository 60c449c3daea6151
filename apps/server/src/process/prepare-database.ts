import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../db/database-errors.js';

/**
 * Runs `prepare` (migrations, demo data) until it succeeds, waiting between attempts (1 s doubling to 15 s)
 * while the database cannot be reached: a server started before its database (a deploy, a restart of both)
 * waits for it instead of exiting. Any other failure (a migration that fails) is thrown at once.
 */
export async function prepareWhenReachable(
  prepare: () => Promise<void>,
  logger: Logger,
  stopped: () => boolean,
): Promise<boolean> {
  for (let attempt = 1, wait = 1000; ; attempt++, wait = Math.min(wait * 2, 15_000)) {
    try {
      await prepare();
      return true;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      logger.warn({ err: error, attempt, retry_in_ms: wait }, 'database not reachable yet; retrying');
      await sleep(wait);
      if (stopped()) return false;
    }
  }
}
