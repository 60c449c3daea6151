import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiKey } from '../../src/auth/api-key.js';
import { ApiKeyCache } from '../../src/auth/api-key-cache.js';
import { runSpa } from '../../src/cli/run-spa.js';
import { listenPostgres } from '../../src/db/notifications.js';
import { makeApiKey, makeOrganisation } from '../support/factories.js';
import { withDatabase } from '../support/postgres-admin.js';
import { setup } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';
import { type ChildServer, eventually } from './support/child-server.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { childServers } from './support/server-fixture.js';

// The embedded database has one server process, which hears of a change directly; test/http/api-key-cache.test.ts
// covers it in process.
if (testDbKind !== 'postgres')
  console.warn('two server processes and a LISTEN connection need PostgreSQL (DATABASE_URL); skipped on PGlite');

/**
 * Server processes keep key rows in memory (src/auth/api-key-cache.ts); a revocation must still reach every one of
 * them at once. Two processes share the database and hear of it by LISTEN/NOTIFY.
 */
describe.skipIf(testDbKind !== 'postgres')(
  'a key revoked by the CLI is refused by two server processes within 1 s',
  () => {
    const servers = childServers();

    it('revokes while the servers hold the key in their caches', { timeout: 120_000 }, async () => {
      const { seeded } = servers;
      const running = await Promise.all([servers.start(), servers.start()]);
      const venues = (server: ChildServer) =>
        fetch(`${server.base}/v1/venues`, { headers: { authorization: `Bearer ${seeded.fixture.key}` } });
      // Twice each: the first request reads the key from the database, the second is served from the cache.
      for (const server of running) for (let i = 0; i < 2; i++) expect((await venues(server)).status).toBe(200);

      const output = { stdout: '', stderr: '' };
      const code = await runSpa(['keys', 'revoke', parseApiKey(seeded.fixture.key)!.id], seeded.env, {
        stdout: (text) => (output.stdout += text),
        stderr: (text) => (output.stderr += text),
      });
      expect({ code, stderr: output.stderr }).toEqual({ code: 0, stderr: '' });
      const revokedAt = performance.now();

      const refusedAfter = await Promise.all(
        running.map(async (server) => {
          for (;;) {
            const res = await venues(server);
            if (res.status === 401) {
              expect(await res.json()).toMatchObject({ error: 'Invalid or revoked API key' });
              return performance.now() - revokedAt;
            }
            expect(res.status).toBe(200);
            if (performance.now() - revokedAt > 5_000) return Infinity;
          }
        }),
      );
      console.log(`revocation refused after ${refusedAfter.map((ms) => `${ms.toFixed(1)} ms`).join(' and ')}`);
      for (const ms of refusedAfter) expect(ms).toBeLessThan(1_000);
    });
  },
);

describe.skipIf(testDbKind !== 'postgres')('the key cache across a network partition of its LISTEN connection', () => {
  const ctx = setup();
  let proxy: TcpProxy;
  beforeAll(async () => {
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(process.env.DATABASE_URL!).port || 5432) });
  });
  afterAll(() => proxy.close());

  it('notices a silent partition by its heartbeat, stops trusting its rows, and comes back live', async () => {
    const url = proxy.urlFor(withDatabase(process.env.DATABASE_URL!, ctx.handle.name!));
    const cache = await ApiKeyCache.start({
      db: ctx.db,
      listen: (channel, handlers) =>
        Promise.resolve(listenPostgres(url, channel, handlers, { everyMs: 100, timeoutMs: 500 })),
    });
    try {
      await eventually(() => cache.isLive, 5_000);
      const org = await makeOrganisation(ctx.db);
      const { id } = await makeApiKey(ctx.db, ctx.vault, org.id);
      // A loaded machine may flap the heartbeat (the cache then keeps nothing): read until the row is kept.
      await eventually(async () => cache.isLive && (await cache.find(id), cache.size === 1), 5_000);
      // Bytes stop; the socket stays open, so only the heartbeat can tell.
      proxy.freeze();
      await eventually(() => !cache.isLive, 2_000);
      expect(cache.size).toBe(0);
      // The next connection passes: the listener is back by itself and the cache trusts its rows again.
      // (A read races with nothing here, but a loaded machine may flap the heartbeat: read until it is kept.)
      await eventually(async () => cache.isLive && (await cache.find(id), cache.size === 1), 5_000);
    } finally {
      await cache.close();
    }
  });
});

describe.skipIf(testDbKind !== 'postgres')('revocation while the LISTEN connection is cut (only that one)', () => {
  const servers = childServers();
  let proxy: TcpProxy;
  beforeAll(async () => {
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(process.env.DATABASE_URL!).port || 5432) });
  });
  afterAll(() => proxy.close());

  it(
    'applies a revocation made while notifications cannot arrive within about a second',
    { timeout: 120_000 },
    async () => {
      const { seeded } = servers;
      // Queries go straight to the database; only the LISTEN connection passes the proxy.
      const server = await servers.start({ DATABASE_LISTEN_URL: proxy.urlFor(seeded.env.DATABASE_URL!) });
      const venues = () =>
        fetch(`${server.base}/v1/venues`, { headers: { authorization: `Bearer ${seeded.fixture.key}` } });
      for (let i = 0; i < 2; i++) expect((await venues()).status).toBe(200); // read, then cached
      await eventually(() => server.logs.some((l) => l.msg === 'API-key cache on: key changes are notified'), 5_000);

      // Bytes stop on the LISTEN connection without a reset, as in a network partition; the revocation's notice is
      // sent into it and lost.
      proxy.freeze();
      const output = { stdout: '', stderr: '' };
      const code = await runSpa(['keys', 'revoke', parseApiKey(seeded.fixture.key)!.id], seeded.env, {
        stdout: (text) => (output.stdout += text),
        stderr: (text) => (output.stderr += text),
      });
      expect({ code, stderr: output.stderr }).toEqual({ code: 0, stderr: '' });
      const revokedAt = performance.now();
      for (;;) {
        const res = await venues();
        if (res.status === 401) break;
        expect(res.status).toBe(200);
        if (performance.now() - revokedAt > 10_000) break;
      }
      const refusedAfter = performance.now() - revokedAt;
      console.log(`revocation refused after ${refusedAfter.toFixed(1)} ms with the LISTEN connection frozen`);
      expect(refusedAfter).toBeLessThan(1_500);
    },
  );
});
