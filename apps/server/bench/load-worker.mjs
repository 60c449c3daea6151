// The load generator runs on its own thread (plain JS, no loader needed), so the measured server keeps its
// event loop to itself, as it would with partners calling it from other machines.
//   mode 'post': `clients` concurrent clients share `bodies`, POSTed to `url` (or to `urls[i]` for `bodies[i]`).
//   mode 'get':  the `urls` one after another (latency of single requests).
//   mode 'loop': `clients` concurrent clients GET `url` again and again for `seconds`; after a 429 or 503 a client
//                waits its Retry-After, as the SDK does.
// It speaks node:http over a keep-alive agent rather than fetch: undici's fetch costs about 0.9 ms of CPU per
// request, which on this 2-core machine is taken from the server being measured.
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { mode, url, urls, key, bodies, clients, seconds } = workerData;
const agent = new Agent({ keepAlive: true, maxSockets: clients ?? 1 });
const latencies = [];
/** Latencies of the 2xx answers only (a refused request is quick, and says nothing of the work). */
const okLatencies = [];
const statuses = {};
let bytes = 0;
const started = performance.now();

function send(target, method, body) {
  const t = performance.now();
  const payload = body === undefined ? undefined : Buffer.from(body);
  const headers = { authorization: `Bearer ${key}` };
  if (payload) Object.assign(headers, { 'content-type': 'application/json', 'content-length': payload.length });
  return new Promise((resolve, reject) => {
    const req = request(target, { method, agent, headers }, (res) => {
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('end', () => {
        latencies.push(performance.now() - t);
        if (res.statusCode < 300) okLatencies.push(performance.now() - t);
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        resolve(Number(res.headers['retry-after'] ?? 0));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

if (mode === 'get') {
  for (const target of urls) await send(target, 'GET');
} else if (mode === 'loop') {
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const retryAfter = await send(url, 'GET');
        if (retryAfter > 0) await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
      }
    }),
  );
} else {
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < bodies.length) {
        const i = next++;
        await send(urls?.[i] ?? url, 'POST', JSON.stringify(bodies[i]));
      }
    }),
  );
}
agent.destroy();
parentPort.postMessage({ latencies, okLatencies, statuses, bytes, seconds: (performance.now() - started) / 1000 });
