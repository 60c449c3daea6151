import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { testDbKind } from '../support/test-db.js';
import { childServers } from './support/server-fixture.js';

describe(`a server process computes long availability ranges on its worker threads (${testDbKind})`, () => {
  const servers = childServers({ rooms: 2 });

  it(
    'answers a 62-day range from its workers as `pnpm start` runs it, and closes them on SIGTERM',
    { timeout: 120_000 },
    async () => {
      const server = await servers.start({ AVAILABILITY_THREADS: '1' });
      const { fixture } = servers.seeded;
      const from = Temporal.Now.plainDateISO('Europe/Paris').add({ days: 1 });
      // 63 days of a 09:00–18:00 grid every 30 minutes: 1,197 grid points, above the pool's threshold (300).
      const res = await fetch(
        `${server.base}/v1/venues/${fixture.venue.id}/availability/variants/${fixture.variant.id}` +
          `?from=${from.toString()}&to=${from.add({ days: 62 }).toString()}`,
        { headers: { Authorization: `Bearer ${fixture.key}` } },
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { days: { slots: unknown[] }[] } };
      expect(body.data.days).toHaveLength(63);
      expect(body.data.days[0]!.slots.length).toBeGreaterThan(0);

      server.child.kill('SIGTERM');
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(server.logs.map((line) => line.msg)).toContain('availability workers closed');
    },
  );
});
