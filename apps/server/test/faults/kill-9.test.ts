import { describe, expect, it } from 'vitest';
import { postBooking } from './support/http.js';
import { runUntil } from './support/mixed-load.js';
import { childServers } from './support/server-fixture.js';
import { testDbKind } from '../support/test-db.js';

describe(`acknowledged bookings survive kill -9 of the server (${testDbKind})`, () => {
  const servers = childServers({ rooms: 1 });

  it(
    'finds every booking answered 201 in the database after SIGKILL in the middle of a create load',
    { timeout: 120_000 },
    async () => {
      const { seeded } = servers;
      const server = await servers.start();
      const { base } = server;

      const acknowledged: string[] = [];
      let killed!: () => void;
      const stop = new Promise<void>((resolve) => (killed = resolve));
      const outcomes = await runUntil(
        4,
        async (n) => {
          const res = await postBooking(base, seeded.fixture, n);
          if (res.status === 201) {
            acknowledged.push(((await res.json()) as { data: { id: string } }).data.id);
            // Killed while the other three clients still have creates in flight.
            if (acknowledged.length === 12) {
              server.child.kill('SIGKILL');
              killed();
            }
          }
          return res.status;
        },
        stop,
      );
      expect((await server.exited).signal).toBe('SIGKILL');
      expect(outcomes.filter((o) => o !== 201 && o !== 'error')).toEqual([]);

      const check = await seeded.open();
      try {
        const stored = await check.db.selectFrom('bookings').select('id').where('id', 'in', acknowledged).execute();
        expect(stored.map((row) => row.id).sort()).toEqual([...acknowledged].sort());
      } finally {
        await check.close();
      }
    },
  );
});
