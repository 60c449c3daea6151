import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApiKey, makeOrganisation } from '../support/factories.js';
import { adminQuery } from '../support/postgres-admin.js';
import { createTestContext, type TestContext } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';
import { type ChildServer, eventually, startChildServer } from './support/child-server.js';
import { isReady, postBooking } from './support/http.js';
import { type Outcome, runUntil } from './support/mixed-load.js';
import { type SeededDatabase, seedDatabase } from './support/seeded-database.js';
import { TcpProxy } from './support/tcp-proxy.js';

// The embedded database lives inside the server process: it cannot go away, refuse or drop a connection.
if (testDbKind !== 'postgres')
  console.warn('database outage tests need a PostgreSQL server (DATABASE_URL); skipped on PGlite');

const terminateConnections = (name: string) =>
  adminQuery(
    process.env.DATABASE_URL!,
    `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
  );

describe.skipIf(testDbKind !== 'postgres')('a server process through database outages (PostgreSQL)', () => {
  let seeded: SeededDatabase;
  let proxy: TcpProxy;
  let server: ChildServer;
  const get = (path: string) =>
    fetch(`${server.base}${path}`, { headers: { Authorization: `Bearer ${seeded.fixture.key}` } });
  let slot = 0;
  /** Creates and reads from six clients until `stop` resolves: every status, or `error` for a failed connection. */
  const mixedLoad = (stop: Promise<unknown>) =>
    runUntil(
      6,
      async (i): Promise<Outcome> =>
        i % 3 === 0
          ? (await postBooking(server.base, seeded.fixture, slot++)).status
          : (await get(i % 3 === 1 ? '/v1/venues' : `/v1/venues/${seeded.fixture.venue.id}/treatments`)).status,
      stop,
    );

  beforeAll(async () => {
    seeded = await seedDatabase({ rooms: 1 });
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(process.env.DATABASE_URL!).port || 5432) });
    proxy.refuse();
    server = await startChildServer({
      ...seeded.env,
      DATABASE_URL: proxy.urlFor(seeded.env.DATABASE_URL!),
      DB_ACQUIRE_TIMEOUT_MS: '500',
    });
  }, 120_000);
  afterAll(async () => {
    server?.kill();
    await proxy?.close();
    await seeded?.drop();
  });

  it('starts while the database refuses connections: /healthz 200, /readyz 503, the API 503 with Retry-After', async () => {
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable' });
    const api = await get('/v1/venues');
    expect(api.status).toBe(503);
    expect(api.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await api.json()).toEqual({ error: 'Service unavailable', request_id: api.headers.get('x-request-id') });
  });

  it('becomes ready by itself once the database accepts connections', { timeout: 60_000 }, async () => {
    proxy.accept();
    await eventually(() => isReady(server.base), 30_000);
    expect((await get('/v1/venues')).status).toBe(200);
  });

  it('answers 503 with Retry-After, never 500, while the connections are cut mid-load, and 200 within 2 s after', async () => {
    let cutDone!: () => void;
    const load = mixedLoad(new Promise<void>((resolve) => (cutDone = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.refuse();
    const during = await get('/v1/venues');
    expect(during.status).toBe(503);
    expect(during.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await fetch(`${server.base}/readyz`)).status).toBe(503);
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    proxy.accept();
    const recovered = await eventually(async () => (await get('/v1/venues')).status === 200, 2000);
    cutDone();
    const outcomes = await load;
    expect(outcomes.filter((o) => ![200, 201, 503].includes(o as number))).toEqual([]);
    expect(server.child.exitCode).toBeNull();
    expect(recovered).toBeLessThan(2000);
  });

  it('stays up when PostgreSQL terminates its connections under load, and answers 200 within 2 s', async () => {
    let done!: () => void;
    const load = mixedLoad(new Promise<void>((resolve) => (done = resolve)));
    for (let round = 0; round < 3; round++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await terminateConnections(seeded.name!);
    }
    const recovered = await eventually(async () => (await get('/v1/venues')).status === 200, 2000);
    done();
    const outcomes = await load;
    expect(outcomes.filter((o) => ![200, 201, 503].includes(o as number))).toEqual([]);
    expect(outcomes.filter((o) => o === 200 || o === 201).length).toBeGreaterThan(0);
    expect(server.child.exitCode).toBeNull();
    expect(recovered).toBeLessThan(2000);
  });
});

describe.skipIf(testDbKind !== 'postgres')('a database that refuses connections (ALLOW_CONNECTIONS false)', () => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await createTestContext({ acquireTimeoutMs: 500 });
    const org = await makeOrganisation(ctx.db);
    ({ key } = await makeApiKey(ctx.db, ctx.vault, org.id));
  });
  afterAll(async () => {
    await adminQuery(process.env.DATABASE_URL!, `alter database ${ctx.handle.name!} allow_connections true`);
    await ctx.close();
  });

  it('answers 503 + Retry-After on API routes, /readyz 503 and /healthz 200, then recovers when allowed again', async () => {
    const name = ctx.handle.name!;
    await adminQuery(process.env.DATABASE_URL!, `alter database ${name} allow_connections false`);
    await terminateConnections(name);
    const auth = { Authorization: `Bearer ${key}` };
    for (const path of ['/v1/venues', '/v1/venues/some-venue/treatments']) {
      const res = await request(ctx.app).get(path).set(auth);
      expect(res.status, path).toBe(503);
      expect(res.headers['retry-after'], path).toMatch(/^\d+$/);
      expect(res.body).toEqual({ error: 'Service unavailable', request_id: res.headers['x-request-id'] });
    }
    const create = await request(ctx.app).post('/v1/venues/some-venue/bookings').set(auth).send({});
    expect(create.status).toBe(503);
    expect((await request(ctx.app).get('/readyz')).status).toBe(503);
    expect((await request(ctx.app).get('/healthz')).status).toBe(200);

    await adminQuery(process.env.DATABASE_URL!, `alter database ${name} allow_connections true`);
    const elapsed = await eventually(
      async () => (await request(ctx.app).get('/v1/venues').set(auth)).status === 200,
      2000,
    );
    expect(elapsed).toBeLessThan(2000);
    expect((await request(ctx.app).get('/readyz')).status).toBe(200);
  });
});
