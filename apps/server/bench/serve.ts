import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { Temporal } from 'temporal-polyfill';
import { createApp } from '../src/app.js';
import { KeyVault } from '../src/auth/api-key.js';
import type { AvailabilityPool } from '../src/availability/availability-pool.js';
import type { Db } from '../src/db/connect.js';
import type { Clock } from '../src/lib/clock.js';

/**
 * The real app on an ephemeral loopback port, with a frozen clock (or the one given), for load through HTTP;
 * with an availability worker pool when given one (as serve-process.ts passes it).
 */
export async function serve(
  db: Db,
  now: Temporal.Instant | Clock,
  options: { availabilityPool?: AvailabilityPool } = {},
) {
  const vault = new KeyVault(randomBytes(32));
  const clock: Clock = 'now' in now ? now : { now: () => now };
  const app = createApp({
    db,
    clock,
    // As a deployment runs by default: answers are checked against the contract in the tests, not here.
    vault,
    config: { rateLimitEnforced: false, publicUrl: 'http://127.0.0.1', responseValidation: false },
    logger: pino({ level: 'silent' }),
    availabilityPool: options.availabilityPool,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    vault,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
