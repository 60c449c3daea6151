import { randomBytes } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { sql } from 'kysely';
import request from 'supertest';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiKeyCache } from '../../src/auth/api-key-cache.js';
import { authenticate } from '../../src/auth/authenticate.js';
import { LISTENER_APPLICATION_NAME, type NotificationHandlers } from '../../src/db/notifications.js';
import { revokeKey } from '../../src/keys/keys.service.js';
import { eventually } from '../faults/support/child-server.js';
import { makeApiKey, makeOrganisation, makeVenue } from '../support/factories.js';
import { setup } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';

/**
 * The key cache (src/auth/api-key-cache.ts): a cached key costs no query, and any change to it (made by anyone,
 * through the notification trigger of migration 0004) drops it. The embedded database notifies in process as the
 * change commits; PostgreSQL by LISTEN/NOTIFY a moment later, so those cases wait up to 1 s.
 */
describe('API keys cached in the server process', () => {
  const ctx = setup();
  let orgId: string;
  beforeAll(async () => {
    orgId = (await makeOrganisation(ctx.db)).id;
    await makeVenue(ctx.db, orgId);
  });

  const status = async (key: string) => (await ctx.partner(key).venues.list()).status;
  /** The status the next requests settle on: at once on PGlite, within 1 s (the notification) on PostgreSQL. */
  const settlesOn = (key: string, expected: number) =>
    eventually(async () => (await status(key)) === expected, testDbKind === 'pglite' ? 0 : 1_000);

  /** Changes a key without its notification (triggers off for this transaction): only the database knows. */
  const changeSilently = (id: string, revoked: boolean) =>
    ctx.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await trx
        .updateTable('api_keys')
        .set({ revoked_at: revoked ? sql<string>`now()` : null })
        .where('id', '=', id)
        .execute();
    });

  it('serves a key it has read from memory: a change nobody announced is not seen', async () => {
    const { key, id } = await makeApiKey(ctx.db, ctx.vault, orgId);
    // The cache trusts its rows only while its listener's heartbeat is fresh; a loaded machine may delay one past
    // the trust window, and the request then reads the database (and the notice of the key's insert may drop the
    // row just read). So: read the key into the cache, revoke it silently, and expect the cached row to be
    // served; if it was not, the request cached the revoked row, so undo with an announced change, which drops
    // that row, and try again.
    await eventually(async () => {
      if (!ctx.apiKeys.isLive || (await status(key)) !== 200) return false;
      await changeSilently(id, true);
      // No query for the key: the cached row still says it is active.
      if ((await status(key)) === 200) return true;
      await ctx.db.updateTable('api_keys').set({ revoked_at: null }).where('id', '=', id).execute();
      return false;
    }, 10_000);
    // Any announced change to the row drops it; the database then says revoked.
    await ctx.db.updateTable('api_keys').set({ rate_limit_per_min: 100 }).where('id', '=', id).execute();
    await settlesOn(key, 401);
  });

  it('refuses a key revoked by the keys service (the CLI) at once', async () => {
    const { key, id } = await makeApiKey(ctx.db, ctx.vault, orgId);
    expect(await status(key)).toBe(200);
    await revokeKey(ctx.db, id);
    await settlesOn(key, 401);
  });

  it('refuses a deleted key, and keys emptied by a TRUNCATE', async () => {
    const deleted = await makeApiKey(ctx.db, ctx.vault, orgId);
    const truncated = await makeApiKey(ctx.db, ctx.vault, orgId);
    expect([await status(deleted.key), await status(truncated.key)]).toEqual([200, 200]);
    await ctx.db.deleteFrom('api_keys').where('id', '=', deleted.id).execute();
    await settlesOn(deleted.key, 401);
    await sql`truncate api_keys`.execute(ctx.db);
    await settlesOn(truncated.key, 401);
  });

  it('reads a changed key again at once, and reads every key again when notifications resume', async () => {
    let queries = 0;
    const counting = ctx.db.withPlugin({
      transformQuery: ({ node }) => (queries++, node),
      transformResult: ({ result }) => Promise.resolve(result),
    });
    const { id } = await makeApiKey(ctx.db, ctx.vault, orgId);
    let handlers: NotificationHandlers | undefined;
    const cache = await ApiKeyCache.start({
      db: counting,
      listen: (_channel, h) => {
        handlers = h;
        h.onLive(true);
        return Promise.resolve({
          isCurrent: () => true,
          sync: () => Promise.resolve(),
          close: () => Promise.resolve(),
        });
      },
    });
    const work = async (keyId: string) => {
      const before = queries;
      const row = await cache.find(keyId);
      return [row?.id, queries - before];
    };
    await eventually(() => cache.isComplete, 5_000);
    expect([await work(id), await work('abcdef012345')]).toEqual([
      [id, 0],
      [undefined, 0],
    ]);
    // A change is announced: the key is read again in the background, then answered from memory.
    await ctx.db.updateTable('api_keys').set({ rate_limit_per_min: 100 }).where('id', '=', id).execute();
    handlers!.onNotify(id);
    await eventually(
      async () => (await cache.find(id))?.rate_limit_per_min === 100 && (await work(id))[1] === 0,
      5_000,
    );
    // Notifications lost: everything held is dropped, and every id costs a query until they resume.
    handlers!.onLive(false);
    expect(cache.size).toBe(0);
    expect([await work(id), await work('abcdef012345')]).toEqual([
      [id, 1],
      [undefined, 1],
    ]);
    handlers!.onLive(true);
    await eventually(() => cache.isComplete, 5_000);
    expect([await work(id), await work('abcdef012345')]).toEqual([
      [id, 0],
      [undefined, 0],
    ]);
    await cache.close();
  });

  it('knows a key created under an id asked for before as soon as its insert is announced', async () => {
    const cache = await ApiKeyCache.start({ db: ctx.db, listen: ctx.handle.listen });
    try {
      await eventually(() => cache.isComplete, 5_000);
      const future = 'fedcba543210';
      expect(await cache.find(future)).toBeUndefined();
      await makeApiKey(ctx.db, ctx.vault, orgId, { id: future });
      await eventually(async () => (await cache.find(future)) !== undefined, testDbKind === 'pglite' ? 0 : 1_000);
    } finally {
      await cache.close();
    }
  });

  it('does the same work for the first sight of a never-seen id as for a key in use with a wrong secret', async () => {
    let queries = 0;
    const counting = ctx.db.withPlugin({
      transformQuery: ({ node }) => (queries++, node),
      transformResult: ({ result }) => Promise.resolve(result),
    });
    const { id, key } = await makeApiKey(ctx.db, ctx.vault, orgId);
    let syncs = 0;
    const cache = await ApiKeyCache.start({
      db: counting,
      listen: async (channel, handlers) => {
        const listener = await ctx.handle.listen(channel, handlers);
        return { ...listener, sync: () => (syncs++, listener.sync()) };
      },
    });
    // The real middleware over the cache: a 401 is the answer both requests below get.
    const app = express()
      .use(authenticate(cache, ctx.vault))
      .use((_req: Request, res: Response) => void res.sendStatus(204))
      .use((_error: unknown, _req: Request, res: Response, _next: NextFunction) => void res.sendStatus(401));
    const hmac = vi.spyOn(ctx.vault, 'hmac');
    try {
      // Warm: the key in use has been seen (the partner's own traffic), as a timing attacker finds it.
      await eventually(async () => {
        const before = queries;
        return (await request(app).get('/').set('Authorization', `Bearer ${key}`)).status === 204 && queries === before;
      }, 5_000);
      // A key created a moment ago authenticates at once, its notice on its way or not.
      const fresh = await makeApiKey(ctx.db, ctx.vault, orgId);
      expect((await request(app).get('/').set('Authorization', `Bearer ${fresh.key}`)).status).toBe(204);
      const work = async (presented: string) => {
        const [q, h, s] = [queries, hmac.mock.calls.length, syncs];
        const res = await request(app).get('/').set('Authorization', `Bearer ${presented}`);
        expect(res.status).toBe(401);
        return { queries: queries - q, hmacs: hmac.mock.calls.length - h, syncs: syncs - s };
      };
      const wrongSecret = `sk_live_${id}_${'0'.repeat(64)}`;
      for (let round = 0; round < 5; round++) {
        const neverSeen = `sk_live_${randomBytes(6).toString('hex')}_${'0'.repeat(64)}`;
        // From memory, an HMAC, one wait for earlier notices and a second look: the same whether the id exists.
        expect([await work(wrongSecret), await work(neverSeen)], `round ${round}`).toEqual([
          { queries: 0, hmacs: 2, syncs: 1 },
          { queries: 0, hmacs: 2, syncs: 1 },
        ]);
      }
    } finally {
      hmac.mockRestore();
      await cache.close();
    }
  });

  it('reads keys from the database while its notifications are not known to arrive, and holds them again after', async () => {
    // A listener the test drives: the real one reconnects within 100 ms, sooner than a loaded machine runs the
    // steps below, and a silent change made once it is back is (rightly) not seen.
    let handlers: NotificationHandlers | undefined;
    const cache = await ApiKeyCache.start({
      db: ctx.db,
      listen: (_channel, given) => {
        handlers = given;
        return Promise.resolve({
          isCurrent: () => true,
          sync: () => Promise.resolve(),
          close: () => Promise.resolve(),
        });
      },
    });
    try {
      const { id } = await makeApiKey(ctx.db, ctx.vault, orgId);
      handlers!.onLive(true);
      await eventually(() => cache.isComplete, 5_000);
      expect((await cache.find(id))?.revoked_at).toBeNull();
      handlers!.onLive(false);
      // Not live: a change nobody announced is seen, since every key is read each time.
      await changeSilently(id, true);
      expect((await cache.find(id))?.revoked_at).not.toBeNull();
      await changeSilently(id, false);
      expect((await cache.find(id))?.revoked_at).toBeNull();
      expect(cache.isComplete).toBe(false);
      // Live again: the whole set is read anew, and the key is answered from memory.
      handlers!.onLive(true);
      await eventually(() => cache.isComplete, 5_000);
      expect((await cache.find(id))?.revoked_at).toBeNull();
    } finally {
      await cache.close();
    }
  });

  it.skipIf(testDbKind !== 'postgres')(
    'loses its listening connection to a termination, serves keys meanwhile, and caches again once it is back',
    async () => {
      const { key } = await makeApiKey(ctx.db, ctx.vault, orgId);
      expect(await status(key)).toBe(200);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`.execute(ctx.db);
      await eventually(() => !ctx.apiKeys.isLive, 2_000);
      expect(await status(key)).toBe(200);
      // The listener reconnects by itself; from then on the key is cached again.
      await eventually(() => ctx.apiKeys.isLive, 5_000);
      expect(await status(key)).toBe(200);
      expect(ctx.apiKeys.size).toBeGreaterThan(0);
    },
  );
});
