import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
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

/**
 * A second server that answers every read of a booking with the document's example booking carrying values a later
 * minor version may add to its open enums: what a client generated today meets tomorrow.
 */
export async function startFutureServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const document = JSON.parse(readFileSync(new URL('../../../../docs/openapi.json', import.meta.url), 'utf8')) as {
    components: { schemas: { Booking: { example: object } } };
  };
  const booking = {
    ...document.components.schemas.Booking.example,
    status: 'on_hold',
    client_type: 'marketplace',
    payment_status: 'invoiced',
  };
  const stub: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: booking }));
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => stub.close(() => resolve())),
  };
}
