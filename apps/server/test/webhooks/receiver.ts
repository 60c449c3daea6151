import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Temporal } from 'temporal-polyfill';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  headers: http.IncomingHttpHeaders;
  path: string;
  body: string;
  at: number;
}

/** How the receiver answers one request: a status (and maybe a Location), or never. */
export type Behaviour = { status: number; location?: string } | 'hang';

/**
 * A real HTTP receiver on a loopback port the system picks. Answers from a queue of behaviours, then 200.
 * `waitFor(n)` resolves once n requests arrived.
 */
export async function startReceiver() {
  const received: Received[] = [];
  const behaviours: Behaviour[] = [];
  const hanging = new Set<http.ServerResponse>();
  let waiters: { n: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        headers: req.headers,
        path: req.url ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
      });
      waiters = waiters.filter((w) => (received.length >= w.n ? (w.resolve(), false) : true));
      const behaviour = behaviours.shift() ?? { status: 200 };
      if (behaviour === 'hang') return void hanging.add(res);
      res.writeHead(behaviour.status, behaviour.location ? { location: behaviour.location } : {});
      res.end(behaviour.status >= 300 ? `answer ${behaviour.status}` : 'ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    /** Answers the next requests this way, in order. */
    answer: (...next: Behaviour[]) => behaviours.push(...next),
    /** Forgets the behaviours not used yet: answers 200 from now on. */
    reset: () => void behaviours.splice(0),
    waitFor: (n: number, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        if (received.length >= n) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${n} requests`)),
          timeoutMs,
        );
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
      }),
    /** The event bodies received, in arrival order, each verified with the standardwebhooks library. */
    verified: (secret: string) =>
      received.map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A clock that starts at `iso` and runs at real speed; `advance` jumps it forward (retries and timeouts fall due). */
export function runningClock(iso: string) {
  let origin = Temporal.Instant.from(iso).epochMilliseconds - performance.now();
  return {
    now: () => Temporal.Instant.fromEpochMilliseconds(Math.floor(origin + performance.now())),
    /** The clock's epoch milliseconds at a performance.now() reading (such as Received.at). */
    epochMsAt: (performanceNow: number) => origin + performanceNow,
    advance: (duration: Temporal.DurationLike) => {
      origin += Temporal.Duration.from(duration).total('milliseconds');
    },
  };
}
