// The load generator runs on its own thread (plain JS, no loader needed), so the measured server keeps its
// event loop to itself, as it would with partners calling it from other machines.
import { parentPort, workerData } from 'node:worker_threads';

const { url, key, bodies, clients } = workerData;
const latencies = [];
const statuses = {};
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: clients }, async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      const t = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await res.arrayBuffer();
      latencies.push(performance.now() - t);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  }),
);
parentPort.postMessage({ latencies, statuses, seconds: (performance.now() - started) / 1000 });
