// The load generator runs on its own thread (plain JS, no loader needed), so the measured server keeps its
// event loop to itself, as it would with partners calling it from other machines.
//   mode 'post': `clients` concurrent clients share `bodies`, POSTed to `url`.
//   mode 'get':  the `urls` one after another (latency of single requests).
import { parentPort, workerData } from 'node:worker_threads';

const { mode, url, urls, key, bodies, clients } = workerData;
const latencies = [];
const statuses = {};
const started = performance.now();

async function send(target, init) {
  const t = performance.now();
  const res = await fetch(target, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
  await res.arrayBuffer();
  latencies.push(performance.now() - t);
  statuses[res.status] = (statuses[res.status] ?? 0) + 1;
}

if (mode === 'get') {
  for (const target of urls) await send(target, { method: 'GET' });
} else {
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < bodies.length) await send(url, { method: 'POST', body: JSON.stringify(bodies[next++]) });
    }),
  );
}
parentPort.postMessage({ latencies, statuses, seconds: (performance.now() - started) / 1000 });
