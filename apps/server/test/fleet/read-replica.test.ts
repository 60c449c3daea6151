import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { KeyVault } from '../../src/auth/api-key.js';
import { connect, type DatabaseHandle } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { ReadReplicas, REPLICA_APPLICATION_NAME } from '../../src/db/read-replicas.js';
import { Metrics } from '../../src/metrics/metrics.js';
import { eventually } from '../faults/support/child-server.js';
import { TcpProxy } from '../faults/support/tcp-proxy.js';
import { slotStart } from '../faults/support/slots.js';
import { type BookableVenue, bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { fixedClock } from '../support/fixed-clock.js';
import {
  type Cluster,
  clusterUnavailableReason,
  queryOne,
  startPrimary,
  startReplica,
} from '../support/postgres-cluster.js';
import { TEST_NOW, TEST_PUBLIC_URL } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';

const skipReason =
  testDbKind !== 'postgres'
    ? 'a streaming replica needs the PostgreSQL project (DATABASE_URL set)'
    : clusterUnavailableReason();
if (skipReason) console.warn(`read replica tests skipped: ${skipReason}`);

const DATABASE = 'spa_replica';
const MAX_LAG_MS = 1_000;

/**
 * A primary of the test's own and a real streaming replica of it (test/support/postgres-cluster.ts), the app's
 * catalogue and availability reads routed by ReadReplicas: served by the replica while it is well, by the primary
 * while it is stopped or lagging, and by the replica again once it is back; never a 5xx.
 */
describe.skipIf(skipReason)('availability and catalogue reads on a real streaming replica', () => {
  let primary: Cluster | undefined;
  let replica: Cluster | undefined;
  let handle: DatabaseHandle;
  let replicas: ReadReplicas;
  let app: Express;
  let fixture: BookableVenue;
  let vault: KeyVault;
  const logs: { msg: string; reason?: string }[] = [];

  beforeAll(async () => {
    primary = await startPrimary();
    await queryOne(primary.url('postgres'), `create database ${DATABASE}`);
    handle = await connect({ databaseUrl: primary.url(DATABASE), poolSize: 4 });
    await migrateToLatest(handle.db);
    vault = new KeyVault(randomBytes(32));
    fixture = await makeBookableVenue(handle.db, vault);
    replica = await startReplica(primary);
    const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
    replicas = await ReadReplicas.open({
      primary: handle.db,
      urls: [replica.url(DATABASE)],
      connection: { poolSize: 4 },
      maxLagMs: MAX_LAG_MS,
      checkMs: 100,
      logger,
    });
    app = appOn(replicas);
    await eventually(() => replicas.states()[0]!.usable, 30_000);
  });

  afterAll(async () => {
    await replicas?.close();
    await handle?.close();
    await replica?.remove();
    await primary?.remove();
  });

  function appOn(reads: ReadReplicas): Express {
    const metrics = new Metrics({ defaultMetrics: false });
    reads.registerMetrics(metrics.registry);
    return createApp({
      db: handle.db,
      reads,
      clock: fixedClock(TEST_NOW),
      vault,
      metrics,
      config: { rateLimitEnforced: false, publicUrl: TEST_PUBLIC_URL },
      logger: pino({ level: 'silent' }),
    });
  }

  const get = (path: string) => request(app).get(path).set('Authorization', `Bearer ${fixture.key}`);
  const day = slotStart(0).slice(0, 10);
  const availability = () =>
    get(`/v1/venues/${fixture.venue.id}/availability/variants/${fixture.variant.id}?date=${day}`);
  const slotListed = async () => {
    const res = await availability();
    expect(res.status).toBe(200);
    return (res.body.data.slots as { start_at: string }[]).some((s) => s.start_at === slotStart(0));
  };
  const readsOn = async (target: 'replica' | 'primary') => {
    const text = (await request(app).get('/metrics')).text;
    return Number(new RegExp(`^db_reads_total\\{target="${target}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  };

  it('serves the venue list, a venue, its treatments and its availability from the replica', async () => {
    const before = await readsOn('replica');
    for (const path of ['/v1/venues', `/v1/venues/${fixture.venue.id}`, `/v1/venues/${fixture.venue.id}/treatments`])
      expect((await get(path)).status).toBe(200);
    expect(await slotListed()).toBe(true);
    // Three catalogue reads, and two for availability (the venue with its variant, then the snapshot).
    expect((await readsOn('replica')) - before).toBe(5);
    expect(await readsOn('primary')).toBe(0);
    // The replica itself ran the snapshot: its sessions of our pool show the statement they ran last.
    const { ran } = await queryOne<{ ran: boolean }>(
      replica!.url(DATABASE),
      `select bool_or(query like '%therapist%') as ran from pg_stat_activity
        where application_name = '${REPLICA_APPLICATION_NAME}'`,
    );
    expect(ran).toBe(true);
    const metrics = (await request(app).get('/metrics')).text;
    expect(metrics).toContain(`db_replica_up{replica="127.0.0.1:${replica!.port}/${DATABASE}"} 1`);
    expect(metrics).not.toContain('db_replica_fallbacks_total{');
  });

  it("answers the replica's 404 as it is, without asking the primary again", async () => {
    const res = await get('/v1/venues/8d6a1f7e-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'Venue not found' });
    expect(await readsOn('primary')).toBe(0);
    expect((await request(app).get('/metrics')).text).not.toContain('db_replica_fallbacks_total{');
  });

  it('skips a replica lagging past the bound (replay paused), then uses it again once it has caught up', async () => {
    await queryOne(replica!.url(DATABASE), 'select pg_wal_replay_pause()');
    const booked = await request(app)
      .post(`/v1/venues/${fixture.venue.id}/bookings`)
      .set('Authorization', `Bearer ${fixture.key}`)
      .send(bookingBody(fixture.variant.id, { start_at: slotStart(0) }));
    expect(booked.status).toBe(201);
    // The one room is taken on the primary; once the replica is skipped, the primary's answer says so.
    await eventually(async () => !replicas.states()[0]!.usable && !(await slotListed()), 30_000);
    expect(replicas.states()[0]!.reason).toMatch(/^lagging \d+ ms behind the primary$/);
    expect(logs.filter((l) => l.msg.startsWith('read replica skipped')).map((l) => l.reason)).toEqual([
      expect.stringMatching(/^lagging/),
    ]);
    const onPrimary = await readsOn('primary');
    expect(await slotListed()).toBe(false);
    expect(await readsOn('primary')).toBe(onPrimary + 2);

    await queryOne(replica!.url(DATABASE), 'select pg_wal_replay_resume()');
    await eventually(() => replicas.states()[0]!.usable, 30_000);
    const onReplica = await readsOn('replica');
    expect(await slotListed()).toBe(false);
    expect(await readsOn('replica')).toBe(onReplica + 2);
  });

  it('answers from the primary while the replica is stopped, stays ready, and goes back to it when it returns', async () => {
    const skipsBefore = logs.filter((l) => l.msg.startsWith('read replica skipped')).length;
    await replica!.stop();
    // At once, before a check has noticed: the reads the replica fails are run again on the primary.
    for (let i = 0; i < 5; i++) expect(await slotListed()).toBe(false);
    expect((await get('/v1/venues')).status).toBe(200);
    expect((await request(app).get('/readyz')).status).toBe(200);
    await eventually(() => replicas.states()[0]!.reason.startsWith('does not answer'), 30_000);
    expect(logs.filter((l) => l.msg.startsWith('read replica skipped')).length).toBe(skipsBefore + 1);

    await replica!.start();
    await eventually(() => replicas.states()[0]!.usable, 30_000);
    const onReplica = await readsOn('replica');
    expect((await get(`/v1/venues/${fixture.venue.id}/treatments`)).status).toBe(200);
    expect(await readsOn('replica')).toBe(onReplica + 1);
  });

  it('skips a replica that stops answering without closing (a partition), with no 5xx, and uses it again after', async () => {
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: replica!.port });
    const partitioned = await ReadReplicas.open({
      primary: handle.db,
      urls: [proxy.urlFor(replica!.url(DATABASE))],
      connection: { poolSize: 2, queryTimeoutMs: 1_000, acquireTimeoutMs: 1_000 },
      maxLagMs: MAX_LAG_MS,
      checkMs: 100,
    });
    const partitionedApp = appOn(partitioned);
    const venues = () => request(partitionedApp).get('/v1/venues').set('Authorization', `Bearer ${fixture.key}`);
    try {
      await eventually(() => partitioned.states()[0]!.usable, 30_000);
      expect((await venues()).status).toBe(200);
      proxy.stall();
      // A read on a frozen connection fails at the client's query timeout and runs again on the primary.
      for (let i = 0; i < 3; i++) expect((await venues()).status).toBe(200);
      await eventually(() => partitioned.states()[0]!.reason.startsWith('does not answer'), 30_000);
      expect((await request(partitionedApp).get('/readyz')).status).toBe(200);
      proxy.accept();
      await eventually(() => partitioned.states()[0]!.usable, 30_000);
      expect((await venues()).status).toBe(200);
    } finally {
      await partitioned.close();
      await proxy.close();
    }
  });
});
