// The load generator runs on its own thread (plain JS, no loader needed), so the measured server keeps its
// event loop to itself, as it would with partners calling it from other machines.
//   mode 'post': `clients` concurrent clients share `bodies`, POSTed to `url`.
//   mode 'get':  the `urls` one after another (latency of single requests).
// It speaks node:http over a keep-alive agent rather than fetch: undici's fetch costs about 0.9 ms of CPU per
// request, which on this 2-core machine is taken from the server being measured.
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { mode, url, urls, key, bodies, clients } = workerData;
const agent = new Agent({ keepAlive: true, maxSockets: clients ?? 1 });
const latencies = [];
const statuses = {};
const started = performance.now();

function send(target, method, body) {
  const t = performance.now();
  const payload = body === undefined ? undefined : Buffer.from(body);
  const headers = { authorization: `Bearer ${key}` };
  if (payload) Object.assign(headers, { 'content-type': 'application/json', 'content-length': payload.length });
  return new Promise((resolve, reject) => {
    const req = request(target, { method, agent, headers }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => {
        latencies.push(performance.now() - t);
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        resolve();
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

if (mode === 'get') {
  for (const target of urls) await send(target, 'GET');
} else {
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < bodies.length) await send(url, 'POST', JSON.stringify(bodies[next++]));
    }),
  );
}
agent.destroy();
parentPort.postMessage({ latencies, statuses, seconds: (performance.now() - started) / 1000 });
