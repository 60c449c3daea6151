import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  /** The path it was sent to: one receiver stands for several endpoints (/hooks/a, /hooks/b). */
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A partner's webhook receiver on a loopback port: keeps every request, answers 200. */
export async function startReceiver() {
  const received: Delivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(', ') : String(value),
        ]),
      );
      received.push({ path: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** The first request matching `test` that arrives within `withinMs`. */
    async waitFor(test: (delivery: Delivery) => boolean, withinMs = 60_000): Promise<Delivery> {
      const deadline = Date.now() + withinMs;
      for (;;) {
        const found = received.find(test);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching webhook within ${withinMs} ms; got ${received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
