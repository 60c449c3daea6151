import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKind } from '../support/test-db.js';
import { type ChildServer, eventually, startChildServer } from './support/child-server.js';
import { isReady, postBooking } from './support/http.js';
import { type SeededDatabase, seedDatabase } from './support/seeded-database.js';
import { TcpProxy } from './support/tcp-proxy.js';

// The embedded database lives inside the server process: no network between them to freeze.
if (testDbKind !== 'postgres')
  console.warn('frozen database tests need a PostgreSQL server (DATABASE_URL); skipped on PGlite');

const SHUTDOWN_TIMEOUT_MS = 3_000;

/** The statuses of requests, or 'hung' for one still unanswered after withinMs. */
async function answeredWithin(requests: Promise<Response>[], withinMs: number) {
  const hung = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), withinMs).unref());
  return Promise.all(
    requests.map(async (pending) => {
      const res = await Promise.race([pending, hung]);
      return res === 'hung' ? res : { status: res.status, retryAfter: res.headers.get('retry-after') };
    }),
  );
}

describe.skipIf(testDbKind !== 'postgres')('a server whose database stops answering (PostgreSQL)', () => {
  let seeded: SeededDatabase;
  let proxy: TcpProxy;
  let server: ChildServer | undefined;
  const get = (path: string) =>
    fetch(`${server!.base}${path}`, { headers: { Authorization: `Bearer ${seeded.fixture.key}` } });
  /** Ten requests at once, reads and creates, as a partner's traffic is. */
  const traffic = (from: number) =>
    Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0 ? get('/v1/venues') : postBooking(server!.base, seeded.fixture, from + i),
    );

  beforeAll(async () => {
    seeded = await seedDatabase({ rooms: 1 });
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(process.env.DATABASE_URL!).port || 5432) });
  }, 120_000);
  afterAll(async () => {
    server?.kill();
    await proxy?.close();
    await seeded?.drop();
  });

  const start = async () => {
    proxy.accept();
    server = await startChildServer({
      ...seeded.env,
      DATABASE_URL: proxy.urlFor(seeded.env.DATABASE_URL!),
      // Only the LISTEN connection goes straight: these tests are about the queries.
      DATABASE_LISTEN_URL: seeded.env.DATABASE_URL!,
      STATEMENT_TIMEOUT_MS: '1000',
      DB_ACQUIRE_TIMEOUT_MS: '500',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    });
    await eventually(() => isReady(server!.base), 30_000);
    for (let i = 0; i < 3; i++) expect((await get('/v1/venues')).status).toBe(200);
  };

  it(
    'destroys a frozen connection instead of pooling it again: 503 for the requests on it, then 200',
    { timeout: 120_000 },
    async () => {
      await start();
      proxy.freeze(); // the open connections go silent; new ones pass
      const during = await answeredWithin(traffic(0), 15_000);
      expect(during).not.toContain('hung');
      for (const answer of during)
        if (answer !== 'hung' && answer.status === 503) expect(answer.retryAfter).toMatch(/^\d+$/);
      // No request meets a frozen connection again: every later one is answered, and answered 200.
      const after = await answeredWithin(
        Array.from({ length: 20 }, () => get('/v1/venues')),
        10_000,
      );
      expect(after.map((a) => (a === 'hung' ? a : a.status))).toEqual(Array(20).fill(200));
      server!.kill();
    },
  );

  it(
    'answers 503 with Retry-After while the database hangs, and exits within SHUTDOWN_TIMEOUT_MS of SIGTERM',
    { timeout: 120_000 },
    async () => {
      await start();
      proxy.stall(); // open connections freeze, new ones are accepted and never answered
      const during = await answeredWithin(traffic(100), 15_000);
      expect(during).toEqual(Array(10).fill({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) }));
      const inFlight = traffic(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const signalled = performance.now();
      server!.child.kill('SIGTERM');
      const exit = await Promise.race([
        server!.exited,
        new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), SHUTDOWN_TIMEOUT_MS + 5_000).unref()),
      ]);
      const exitedAfter = performance.now() - signalled;
      console.log(`exited ${exitedAfter.toFixed(0)} ms after SIGTERM with the database frozen`);
      expect(exit).not.toBe('running');
      // The process leaves by its own deadline; the slack is the time to notice it on a loaded machine.
      expect(exitedAfter).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 1_500);
      const answers = await answeredWithin(inFlight, 1_000).catch(() => []);
      expect(answers).not.toContain('hung');
    },
  );
});
