import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyVault, parseApiKey } from '../../src/auth/api-key.js';
import { runSpa } from '../../src/cli/run-spa.js';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { webhookEndpoints } from '../../src/webhooks/index.js';
import { type ChildServer, eventually, startChildServer } from '../faults/support/child-server.js';
import { isReady } from '../faults/support/http.js';
import { slotStart } from '../faults/support/slots.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { type BookableVenue, bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { type PgBouncer, pgBouncerUnavailableReason, startPgBouncer } from '../support/pgbouncer.js';
import {
  type Cluster,
  clusterUnavailableReason,
  queryOne,
  startPrimary,
  startReplica,
} from '../support/postgres-cluster.js';
import { testDbKind } from '../support/test-db.js';

const skipReason =
  testDbKind !== 'postgres'
    ? 'the fleet needs the PostgreSQL project (DATABASE_URL set)'
    : (clusterUnavailableReason() ?? pgBouncerUnavailableReason());
if (skipReason) console.warn(`fleet tests (PgBouncer, replica, two processes) skipped: ${skipReason}`);

const DATABASE = 'spa_fleet';

/**
 * The deploy guide's topology on real parts: two compiled server processes, each with DATABASE_URL through a real
 * PgBouncer in transaction pooling (prepared statements off), DATABASE_LISTEN_URL straight to the primary, and a
 * streaming replica for availability and catalogue reads. Nothing in front of the processes: requests alternate.
 */
describe.skipIf(skipReason)('two server processes through PgBouncer (transaction pooling) with a replica', () => {
  let primary: Cluster | undefined;
  let replica: Cluster | undefined;
  let bouncer: PgBouncer | undefined;
  let receiver: Receiver | undefined;
  const servers: ChildServer[] = [];
  let fixture: BookableVenue;
  let env: Record<string, string>;

  beforeAll(async () => {
    primary = await startPrimary();
    await queryOne(primary.url('postgres'), `create database ${DATABASE}`);
    // PgBouncer drops the startup `options` (ignore_startup_parameters): the database carries what they set.
    for (const setting of [`timezone = 'UTC'`, 'statement_timeout = 5000', 'lock_timeout = 1000'])
      await queryOne(primary.url('postgres'), `alter database ${DATABASE} set ${setting}`);
    const keyEncryptionKey = randomBytes(32);
    const vault = new KeyVault(keyEncryptionKey);
    const seeding = await connect({ databaseUrl: primary.url(DATABASE), poolSize: 2 });
    try {
      await migrateToLatest(seeding.db);
      fixture = await makeBookableVenue(seeding.db, vault);
      receiver = await startReceiver();
      await webhookEndpoints.addEndpoint(seeding.db, vault, {
        orgSlug: fixture.organisation.slug,
        url: receiver.url,
        allowPrivateNetworks: true,
      });
    } finally {
      await seeding.close();
    }
    replica = await startReplica(primary);
    bouncer = await startPgBouncer(primary.port, [{ name: 'one_connection', database: DATABASE, size: 1 }]);
    env = {
      DATABASE_URL: bouncer.url(DATABASE),
      DATABASE_LISTEN_URL: primary.url(DATABASE),
      DATABASE_REPLICA_URL: replica.url(DATABASE),
      DATABASE_REPLICA_CHECK_MS: '200',
      DATABASE_PREPARED_STATEMENTS: 'false',
      KEY_ENCRYPTION_KEY: keyEncryptionKey.toString('hex'),
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      DB_POOL_SIZE: '4',
    };
    for (let i = 0; i < 2; i++) servers.push(await startChildServer(env));
    for (const server of servers) await eventually(() => isReady(server.base), 60_000);
    // Each process uses the replica once its first check has found it current.
    for (const server of servers) await eventually(async () => (await metric(server, 'db_replica_up')) === 1, 30_000);
  });

  afterAll(async () => {
    for (const server of servers) server.kill();
    await receiver?.close();
    await bouncer?.stop();
    await replica?.remove();
    await primary?.remove();
  });

  const call = (server: ChildServer, path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${server.base}${path}`, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${fixture.key}`, 'Content-Type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const book = (server: ChildServer, n: number, externalId: string) =>
    call(server, `/v1/venues/${fixture.venue.id}/bookings`, {
      method: 'POST',
      body: bookingBody(fixture.variant.id, {
        start_at: slotStart(n),
        external_id: externalId,
        guest: {
          ...bookingBody(fixture.variant.id).guest,
          first_name: 'Fleet',
          last_name: `Guest ${externalId}`,
          email: `${externalId}@example.com`,
        },
      }),
    });
  const listed = async (server: ChildServer, n: number) => {
    const res = await call(
      server,
      `/v1/venues/${fixture.venue.id}/availability/variants/${fixture.variant.id}?date=${slotStart(n).slice(0, 10)}`,
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { slots: { start_at: string }[] } };
    return body.data.slots.some((s) => s.start_at === slotStart(n));
  };

  it('books, replays, settles a race for one slot across both processes, cancels, and delivers the webhooks', async () => {
    const [a, b] = [servers[0]!, servers[1]!];
    // Catalogue reads go to the replica in each process.
    for (const server of servers) {
      expect((await call(server, `/v1/venues/${fixture.venue.id}/treatments`)).status).toBe(200);
      expect(await metric(server, 'db_reads_total', 'target="replica"')).toBeGreaterThan(0);
    }
    expect(await listed(a, 0)).toBe(true);
    const created = await book(a, 0, 'fleet-0');
    expect(created.status).toBe(201);
    const booking = ((await created.json()) as { data: { id: string } }).data;
    const replay = await book(b, 0, 'fleet-0');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replay.json()) as { data: { id: string } }).data.id).toBe(booking.id);

    // Six creates for one free slot (the venue has one room), three through each process at once.
    const race = await Promise.all(
      Array.from({ length: 6 }, (_, i) => book(i % 2 === 0 ? a : b, 1, `fleet-race-${i}`)),
    );
    const statuses = race.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of race.filter((r) => r.status === 409))
      expect(await r.json()).toMatchObject({ error: 'slot_unavailable' });

    const cancelled = await call(b, `/v1/bookings/${booking.id}/cancel`, {
      method: 'POST',
      body: { reason: 'Guest changed plans', cancelled_by: 'customer' },
    });
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as { data: { status: string } }).data.status).toBe('cancelled');
    // The freed slot is listed again, on either process, once the replica has replayed the cancellation.
    for (const server of servers) await eventually(() => listed(server, 0), 10_000);

    // Two creations and a cancellation, each delivered once by one of the two processes.
    await receiver!.waitFor(3, 30_000);
    const types = receiver!.received.map((r) => (JSON.parse(r.body) as { type: string }).type).sort();
    expect(types).toEqual(['booking.cancelled', 'booking.created', 'booking.created']);
  });

  it('refuses a revoked key in both processes once the CLI, through PgBouncer, has revoked it', async () => {
    for (const server of servers)
      for (let i = 0; i < 2; i++) expect((await call(server, '/v1/venues')).status).toBe(200);
    const output = { stdout: '', stderr: '' };
    const code = await runSpa(['keys', 'revoke', parseApiKey(fixture.key)!.id], env, {
      stdout: (text) => (output.stdout += text),
      stderr: (text) => (output.stderr += text),
    });
    expect({ code, stderr: output.stderr }).toEqual({ code: 0, stderr: '' });
    for (const server of servers)
      await eventually(async () => (await call(server, '/v1/venues')).status === 401, 5_000);
    // No request of either test was answered with a 5xx.
    for (const server of servers) expect(server.logs.filter((l) => l.msg === 'request errored')).toEqual([]);
  });

  it('fails through transaction pooling with named prepared statements on, which is why the setting exists', async () => {
    // One server connection behind the pool: the second client's Parse meets the name the first one left there.
    const clients = [true, true].map(() =>
      connect({ databaseUrl: bouncer!.url('one_connection'), poolSize: 1, preparedStatements: true }),
    );
    const [first, second] = await Promise.all(clients);
    try {
      const statement = sql<{ n: number }>`select ${41}::int + 1 as n, 'prepared-on' as probe`;
      expect((await statement.execute(first!.db)).rows).toEqual([{ n: 42, probe: 'prepared-on' }]);
      await expect(statement.execute(second!.db)).rejects.toMatchObject({ code: '42P05' });
    } finally {
      await Promise.all([first!.close(), second!.close()]);
    }
    const unnamed = await connect({
      databaseUrl: bouncer!.url('one_connection'),
      poolSize: 1,
      preparedStatements: false,
    });
    try {
      const statement = sql<{ n: number }>`select ${41}::int + 1 as n, 'prepared-off' as probe`;
      for (let i = 0; i < 3; i++)
        expect((await statement.execute(unnamed.db)).rows).toEqual([{ n: 42, probe: 'prepared-off' }]);
    } finally {
      await unnamed.close();
    }
  });
});

/** One sample of a process's /metrics (the first with `labels`, when given); NaN when absent. */
async function metric(server: ChildServer, name: string, labels?: string): Promise<number> {
  const text = await (await fetch(`${server.base}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith(name) && !l.startsWith(`${name}_`) && (labels === undefined || l.includes(labels)));
  return line === undefined ? Number.NaN : Number(line.slice(line.lastIndexOf(' ') + 1));
}
