import { beforeAll, describe, expect, it } from 'vitest';
import { makeApiKey } from '../support/factories.js';
import { KeyVault } from '../../src/auth/api-key.js';
import { testDbKind } from '../support/test-db.js';
import { childServers } from './support/server-fixture.js';

// The embedded database belongs to one server process: there is no second process to share a count with.
if (testDbKind !== 'postgres')
  console.warn(
    'the shared rate limit needs two processes on one PostgreSQL database (DATABASE_URL); skipped on PGlite',
  );

describe.skipIf(testDbKind !== 'postgres')('rate limits shared by every process on one database (PostgreSQL)', () => {
  const LIMIT = 10;
  const servers = childServers();
  let key: string;
  beforeAll(async () => {
    const handle = await servers.seeded.open();
    try {
      const vault = new KeyVault(Buffer.from(servers.seeded.env.KEY_ENCRYPTION_KEY!, 'hex'));
      ({ key } = await makeApiKey(handle.db, vault, servers.seeded.fixture.organisation.id, {
        rateLimitPerMin: LIMIT,
      }));
    } finally {
      await handle.close();
    }
  });

  it(
    'lets two server processes together allow the quota once, then both answer 429',
    { timeout: 120_000 },
    async () => {
      const { seeded } = servers;
      const env = { RATE_LIMIT_ENFORCED: 'true' };
      const pair = await Promise.all([servers.start(env), servers.start(env)]);

      const statuses: number[] = [];
      for (let i = 0; i < 3 * LIMIT; i++) {
        const res = await fetch(`${pair[i % 2]!.base}/v1/venues/${seeded.fixture.venue.id}/customers`, {
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
      const fresh = await servers.start(env);
      const after = await fetch(`${fresh.base}/v1/venues/${seeded.fixture.venue.id}/customers`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      expect(after.status).toBe(429);
      expect(after.headers.get('x-ratelimit-remaining')).toBe('0');
    },
  );
});
