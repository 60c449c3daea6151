import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bookingBody } from '../support/booking-fixture.js';
import { testDbKind } from '../support/test-db.js';
import { eventually } from './support/child-server.js';
import { RawConnection } from './support/raw-http.js';
import { childServers } from './support/server-fixture.js';
import { slotStart } from './support/slots.js';

// Several processes share only a PostgreSQL server; the embedded database belongs to one process.
if (testDbKind !== 'postgres')
  console.warn('the WEB_CONCURRENCY case needs PostgreSQL (DATABASE_URL); skipped on PGlite');

/** Whether a process runs (a server left behind by pnpm would). */
function running(pid: unknown): boolean {
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch {
    return false;
  }
}

// `pnpm start` is what the README and the deploy guide run: SIGTERM goes to pnpm, as an orchestrator sends it.
describe(`SIGTERM to \`pnpm start\` drains the server process (${testDbKind})`, () => {
  const servers = childServers({ rooms: 1 });

  it(
    'closes idle keep-alive connections at once, answers the request in flight with Connection: close, exits 0',
    { timeout: 120_000 },
    async () => {
      const { seeded } = servers;
      const server = await servers.start({}, 'pnpm start');
      const port = Number(new URL(server.base).port);
      const { fixture } = seeded;

      // Three keep-alive connections, each idle after one answered request.
      const idle = Array.from({ length: 3 }, () => new RawConnection(port));
      for (const connection of idle) {
        connection.write(`GET /v1/venues HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${fixture.key}\r\n\r\n`);
        expect((await connection.response()).status).toBe(200);
      }

      // A create whose headers are in but whose body is still on its way when SIGTERM arrives. The server's
      // `100 Continue` says it has the request (a pause instead would race a busy machine's scheduler).
      const body = JSON.stringify(bookingBody(fixture.variant.id, { start_at: slotStart(0) }));
      const busy = new RawConnection(port);
      busy.write(
        `POST /v1/venues/${fixture.venue.id}/bookings HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${fixture.key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Expect: 100-continue\r\n\r\n`,
      );
      await busy.continued();
      busy.write(body.slice(0, 20));

      server.child.kill('SIGTERM');
      await Promise.all(idle.map((connection) => connection.closed));
      expect(server.child.exitCode).toBeNull(); // still draining: the create is in flight

      busy.write(body.slice(20));
      const created = await busy.response();
      expect(created.status).toBe(201);
      expect(created.headers.connection).toBe('close');
      await busy.closed;
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(server.logs.map((l) => l.msg)).toEqual(
        expect.arrayContaining(['shutting down: draining connections', 'stopped']),
      );
      expect(running(server.logs[0]?.pid)).toBe(false);

      const check = await seeded.open();
      try {
        const id = (JSON.parse(created.body) as { data: { id: string } }).data.id;
        expect(await check.db.selectFrom('bookings').select('id').where('id', '=', id).executeTakeFirst()).toEqual({
          id,
        });
      } finally {
        await check.close();
      }
    },
  );

  // A PID namespace needs privileges (root, or user namespaces); where the machine has none, this case is skipped.
  const pidNamespaces = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;
  it.skipIf(!pidNamespaces)(
    'does so as a container’s PID 1 (`CMD ["pnpm", "start"]`): pnpm gets SIGTERM, the server drains, exit 0',
    { timeout: 120_000 },
    async () => {
      const server = await servers.start({}, 'pnpm start as PID 1');
      const unshare = server.child.pid!;
      const pid1 = Number(readFileSync(`/proc/${unshare}/task/${unshare}/children`, 'utf8').trim());
      expect(readFileSync(`/proc/${pid1}/status`, 'utf8')).toMatch(/^NSpid:\s+\d+\s+1$/m);
      process.kill(pid1, 'SIGTERM');
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(server.logs.map((l) => l.msg)).toEqual(
        expect.arrayContaining(['shutting down: draining connections', 'stopped']),
      );
    },
  );

  it.skipIf(testDbKind !== 'postgres')(
    'runs WEB_CONCURRENCY server processes on one port, and stops them all with exit 0 on SIGTERM',
    { timeout: 120_000 },
    async () => {
      const cluster = await servers.start({ WEB_CONCURRENCY: '2' }, 'pnpm start');
      await eventually(
        () =>
          Promise.resolve(
            new Set(cluster.logs.filter((l) => l.msg === 'partner booking API listening').map((l) => l.pid)).size === 2,
          ),
        30_000,
      );
      const res = await fetch(`${cluster.base}/v1/venues`, {
        headers: { Authorization: `Bearer ${servers.seeded.fixture.key}` },
      });
      expect(res.status).toBe(200);
      cluster.child.kill('SIGTERM');
      expect(await cluster.exited).toEqual({ code: 0, signal: null });
      expect(cluster.logs.map((l) => l.pid).filter(running)).toEqual([]);
    },
  );
});
