import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import { pino } from 'pino';
import { createApp } from '../../src/app.js';
import { KeyVault } from '../../src/auth/api-key.js';
import type { DatabaseHandle } from '../../src/db/connect.js';
import { fixedClock } from '../../src/lib/clock.js';
import { openTestDatabase } from './test-db.js';

export interface TestContext {
  handle: DatabaseHandle;
  db: DatabaseHandle['db'];
  app: Express;
  vault: KeyVault;
  clock: ReturnType<typeof fixedClock>;
  close(): Promise<void>;
}

/** A fresh database and an app over it, the clock frozen at `now`. One per test file (beforeAll). */
export async function createTestContext(
  options: { now?: string; rateLimitEnforced?: boolean; poolSize?: number } = {},
): Promise<TestContext> {
  const handle = await openTestDatabase({ poolSize: options.poolSize });
  const keyEncryptionKey = randomBytes(32);
  const clock = fixedClock(options.now ?? '2026-11-22T08:00:00Z');
  const app = createApp({
    db: handle.db,
    clock,
    config: { keyEncryptionKey, rateLimitEnforced: options.rateLimitEnforced ?? false, publicUrl: 'http://localhost' },
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
  });
  return { handle, db: handle.db, app, vault: new KeyVault(keyEncryptionKey), clock, close: () => handle.close() };
}
