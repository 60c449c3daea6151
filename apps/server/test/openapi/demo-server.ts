import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Example } from '@spa/contract';
import { pino } from 'pino';
import { createApp } from '../../src/app.js';
import { KeyVault } from '../../src/auth/api-key.js';
import { seedDemoDataIfEmpty } from '../../src/demo/seed-demo.js';
import { demoFile } from '../import/venue-file.js';
import { fixedClock } from '../support/fixed-clock.js';
import { openTestDatabase } from '../support/test-db.js';

/** The demo data's key number `index` as a partner sends it (0: the demo organisation's key with every scope). */
export const demoKey = (index = 0) => `sk_live_${demoFile().api_keys[index].id}_${demoFile().api_keys[index].secret}`;

/**
 * The app on the demo data, with the clock at the document's examples' instant (so the examples' slots are in the
 * future), listening on a free loopback port: what the generated clients, the Java client and the Prism proxy
 * call. `close` ends the server and the database.
 */
export async function startDemoServer(clock: ReturnType<typeof fixedClock> = fixedClock(Example.createdAt)) {
  const handle = await openTestDatabase();
  const vault = new KeyVault(randomBytes(32));
  await seedDemoDataIfEmpty(handle.db, vault);
  const app = createApp({
    db: handle.db,
    clock,
    vault,
    config: { rateLimitEnforced: false, publicUrl: 'http://localhost' },
    logger: pino({ level: 'silent' }),
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handle.close();
    },
  };
}

export type DemoServer = Awaited<ReturnType<typeof startDemoServer>>;
