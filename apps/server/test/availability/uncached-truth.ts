import { pino } from 'pino';
import { createApp } from '../../src/app.js';
import { apiOf } from '../support/api.js';
import type { TestContext } from '../support/test-app.js';

/**
 * The truth the cache is compared with: an app on the same database and clock with no availability cache, so
 * every answer is read and computed at the moment it is asked.
 */
export const uncachedApi = (ctx: Pick<TestContext, 'db' | 'clock' | 'vault'>) =>
  apiOf(
    createApp({
      db: ctx.db,
      clock: ctx.clock,
      vault: ctx.vault,
      config: { rateLimitEnforced: false, publicUrl: 'http://localhost' },
      logger: pino({ level: 'silent' }),
    }),
  );
