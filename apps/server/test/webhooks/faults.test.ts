import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { KeyVault } from '../../src/auth/api-key.js';
import { connect, type DatabaseHandle, fromPglite, openPglite } from '../../src/db/connect.js';
import { webhookEndpoints } from '../../src/webhooks/index.js';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { adminQuery, withDatabase } from '../support/postgres-admin.js';
import { testDbKind } from '../support/test-db.js';
import { eventually, startChildServer as spawnServer } from '../faults/support/child-server.js';
import { isReady } from '../faults/support/http.js';
import { startReceiver, type Receiver } from './receiver.js';

/**
 * The real server as a child process (the fault suite's helper), once ready: its database migrated, since it
 * answers 503 before. kill() is kill -9 and stop() SIGTERM, each awaiting the exit.
 */
async function startChildServer(env: Record<string, string>) {
  const server = await spawnServer(env);
  await eventually(() => isReady(server.base), 60_000).catch((error: unknown) => {
    server.kill();
    throw error;
  });
  return {
    base: server.base,
    logs: server.logs,
    kill: async () => {
      server.kill();
      await server.exited;
    },
    stop: async () => {
      server.child.kill('SIGTERM');
      return (await server.exited).code;
    },
  };
}
type ChildServer = Awaited<ReturnType<typeof startChildServer>>;

const KEY_HEX = randomBytes(32).toString('hex');
const vault = new KeyVault(Buffer.from(KEY_HEX, 'hex'));

/** A database the child servers use: a PostgreSQL clone of the migrated template, or an embedded data directory. */
async function faultDatabase(): Promise<{
  env: Record<string, string>;
  open(): Promise<DatabaseHandle>;
  drop(): Promise<void>;
}> {
  if (testDbKind === 'postgres') {
    const admin = process.env.DATABASE_URL!;
    const name = `spa_wh_fault_${randomBytes(6).toString('hex')}`;
    await adminQuery(admin, `create database ${name} template ${inject('postgresTemplate')}`);
    const url = withDatabase(admin, name);
    return {
      env: { DATABASE_URL: url },
      open: () => connect({ databaseUrl: url, poolSize: 2 }),
      drop: () => adminQuery(admin, `drop database if exists ${name} with (force)`),
    };
  }
  // Started from the migrated dump the suite made once (global-setup.ts): migrating a new data directory costs
  // seconds.
  const dir = mkdtempSync(join(tmpdir(), 'spa-wh-fault-'));
  await fromPglite(
    await openPglite({ dataDir: dir, loadDataDir: new Blob([readFileSync(inject('pgliteDumpPath'))]) }),
  ).close();
  return {
    env: { DATA_DIR: dir },
    open: () => connect({ dataDir: dir }),
    drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
}

/** A bookable venue with an endpoint to the receiver, written before any child server runs. */
async function prepare(database: Awaited<ReturnType<typeof faultDatabase>>, receiver: Receiver) {
  const handle: DatabaseHandle = await database.open();
  try {
    const f = await makeBookableVenue(handle.db, vault);
    const endpoint = await webhookEndpoints.addEndpoint(handle.db, vault, {
      orgSlug: f.organisation.slug,
      url: receiver.url,
      allowPrivateNetworks: true,
    });
    return { ...f, secret: endpoint.secret, endpointId: endpoint.id };
  } finally {
    await handle.close();
  }
}

const SERVER_ENV = {
  KEY_ENCRYPTION_KEY: KEY_HEX,
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1',
};

async function book(
  server: ChildServer,
  f: { venue: { id: string }; variant: { id: string }; key: string },
  start: string,
) {
  const res = await fetch(`${server.base}/v1/venues/${f.venue.id}/bookings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${f.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(bookingBody(f.variant.id, { start_at: start })),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

/** The booking ids of the events that reached the receiver, verified with standardwebhooks. */
const deliveredBookings = (receiver: Receiver, secret: string, from = 0) =>
  receiver.received.slice(from).map((r) => {
    const event = new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
      type: string;
      data: { booking: { id: string } };
    };
    return `${event.type} ${event.data.booking.id}`;
  });

describe('webhook delivery survives the server process (child processes of the compiled server)', () => {
  let database: Awaited<ReturnType<typeof faultDatabase>>;
  let receiver: Receiver;
  const servers: ChildServer[] = [];
  beforeAll(async () => {
    database = await faultDatabase();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const s of servers) await s.kill().catch(() => undefined);
    await receiver.close();
    await database.drop();
  });

  it('kill -9 between commit and delivery loses no event: the next process delivers it', async () => {
    const f = await prepare(database, receiver);
    // The receiver takes the first event and never answers: the delivery is in flight, claimed, when the process dies.
    receiver.answer('hang', 'hang', 'hang');
    const first = await startChildServer({ ...SERVER_ENV, ...database.env });
    servers.push(first);
    const a = await book(first, f, '2026-12-01T09:00:00Z');
    await receiver.waitFor(1);
    // The second event is committed and killed before (or while) it is claimed.
    const b = await book(first, f, '2026-12-01T11:00:00Z');
    await first.kill();
    receiver.reset();
    const seen = receiver.received.length;

    const second = await startChildServer({ ...SERVER_ENV, ...database.env });
    servers.push(second);
    // On PostgreSQL the in-flight one waits for its lease (attempt time limit + 5 s = 15 s) to lapse, since
    // another live process might hold it; the embedded database is the new process's alone, so it releases the
    // dead process's leases at start (its log says so) instead of waiting. Deadlines, not durations: a busy
    // machine may take longer either way.
    await receiver.waitFor(seen + 2, 90_000);
    if (testDbKind === 'pglite') {
      const released = second.logs.find((l) => l.msg === 'webhook deliveries left by a stopped process are due again');
      expect(released?.released).toBeGreaterThanOrEqual(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(new Set(deliveredBookings(receiver, f.secret, seen))).toEqual(
      new Set([`booking.created ${a}`, `booking.created ${b}`]),
    );
    // The process's /metrics counts what its engine delivered (the engine writes into the served registry). It
    // counts a delivery once it has recorded the attempt, which is after the receiver has the request: wait for it.
    const metrics = async () => (await fetch(`${second.base}/metrics`)).text();
    const succeeded = async () => Number(/^webhook_deliveries_succeeded_total (\d+)$/m.exec(await metrics())?.[1]);
    await eventually(async () => (await succeeded()) >= 2, 30_000).catch(() => undefined);
    expect(await succeeded()).toBe(2);
    const lagCount = Number(/^webhook_delivery_lag_seconds_count (\d+)$/m.exec(await metrics())?.[1]);
    expect(await second.stop()).toBe(0);
    // Lag is observed on first attempts only. The event whose attempt the crash cut is on its second here; the
    // other one too if the first process had claimed it before it died, which a busy machine decides: the count
    // is the deliveries that succeeded on their first attempt, as the database recorded them.
    const check = await database.open();
    try {
      const firstTry = await check.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', f.endpointId)
        .where('status', '=', 'succeeded')
        .where('attempts', '=', 1)
        .execute();
      expect(firstTry.length).toBeLessThanOrEqual(1);
      expect(lagCount).toBe(firstTry.length);
    } finally {
      await check.close();
    }
  }, 240_000);

  it.skipIf(testDbKind !== 'postgres')(
    'two server processes on one PostgreSQL database deliver every event; duplicates are counted (SKIP LOCKED claims: none)',
    async () => {
      const f = await prepare(database, receiver);
      const pair = [
        await startChildServer({ ...SERVER_ENV, ...database.env }),
        await startChildServer({ ...SERVER_ENV, ...database.env }),
      ];
      servers.push(...pair);
      const from = receiver.received.length;
      const ids: string[] = [];
      for (let day = 2; day <= 6; day++)
        for (let hour = 8; hour <= 15; hour++)
          ids.push(await book(pair[ids.length % 2]!, f, `2026-12-0${day}T${String(hour).padStart(2, '0')}:00:00Z`));
      await receiver.waitFor(from + ids.length, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // any late duplicate would land now
      const delivered = deliveredBookings(receiver, f.secret, from);
      const distinct = new Set(delivered);
      const duplicates = delivered.length - distinct.size;
      console.log(`two processes: ${ids.length} events, ${delivered.length} deliveries, ${duplicates} duplicates`);
      expect(distinct).toEqual(new Set(ids.map((id) => `booking.created ${id}`)));
      // A duplicate would need a lease to lapse during an attempt (an attempt slower than its time limit + 5 s).
      expect(duplicates).toBe(0);
      for (const s of pair) expect(await s.stop()).toBe(0);
    },
    180_000,
  );
});
