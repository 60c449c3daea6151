import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApiKey } from '../support/factories.js';
import { KeyVault } from '../../src/auth/api-key.js';
import { testDbKind } from '../support/test-db.js';
import { type ChildServer, eventually, startChildServer } from './support/child-server.js';
import { isReady } from './support/http.js';
import { type SeededDatabase, seedDatabase } from './support/seeded-database.js';

// The embedded database belongs to one server process: there is no second process to share a count with.
if (testDbKind !== 'postgres')
  console.warn(
    'the shared rate limit needs two processes on one PostgreSQL database (DATABASE_URL); skipped on PGlite',
  );

describe.skipIf(testDbKind !== 'postgres')('rate limits shared by every process on one database (PostgreSQL)', () => {
  const LIMIT = 10;
  let seeded: SeededDatabase;
  let key: string;
  const servers: ChildServer[] = [];
  beforeAll(async () => {
    seeded = await seedDatabase();
    const handle = await seeded.open();
    try {
      const vault = new KeyVault(Buffer.from(seeded.env.KEY_ENCRYPTION_KEY!, 'hex'));
      ({ key } = await makeApiKey(handle.db, vault, seeded.fixture.organisation.id, { rateLimitPerMin: LIMIT }));
    } finally {
      await handle.close();
    }
  });
  afterAll(async () => {
    for (const server of servers) server.kill();
    await seeded.drop();
  });

  it(
    'lets two server processes together allow the quota once, then both answer 429',
    { timeout: 120_000 },
    async () => {
      const env = { ...seeded.env, RATE_LIMIT_ENFORCED: 'true' };
      servers.push(...(await Promise.all([startChildServer(env), startChildServer(env)])));
      for (const server of servers) await eventually(() => isReady(server.base), 30_000);

      const statuses: number[] = [];
      for (let i = 0; i < 3 * LIMIT; i++) {
        const res = await fetch(`${servers[i % 2]!.base}/v1/venues/${seeded.fixture.venue.id}/customers`, {
          headers: { Authorization: `Bearer ${key}` },
        });
        statuses.push(res.status);
        expect(res.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
        if (res.status === 429) {
          expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(await res.json()).toEqual({
            error: 'Rate limit exceeded',
            request_id: res.headers.get('x-request-id'),
          });
        }
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
      expect(statuses.slice(LIMIT).every((s) => s === 429)).toBe(true);

      // A restart forgets nothing: a fresh process on the same database keeps refusing this minute.
      const fresh = await startChildServer(env);
      servers.push(fresh);
      await eventually(() => isReady(fresh.base), 30_000);
      const after = await fetch(`${fresh.base}/v1/venues/${seeded.fixture.venue.id}/customers`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      expect(after.status).toBe(429);
      expect(after.headers.get('x-ratelimit-remaining')).toBe('0');
    },
  );
});
