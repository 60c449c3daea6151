// Throughput load on its own thread (plain JS, no loader needed), so the measured server keeps its event loop to
// itself. autocannon rather than node:http (load-worker.mjs): it parses responses with less CPU per request, and
// on this 2-core machine whatever the load generator spends is taken from the server and PostgreSQL it measures.
import autocannon from 'autocannon';
import { parentPort, workerData } from 'node:worker_threads';

const { url, key, connections, seconds } = workerData;
const options = { url, connections, duration: seconds, headers: { authorization: `Bearer ${key}` } };
// Off the main thread autocannon hands back its raw histograms (it expects to be its own worker): aggregated here.
const result = autocannon.aggregateResult([await autocannon(options)], options);
parentPort.postMessage({
  requests: result.requests.total,
  seconds: result.duration,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
});
