import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

export interface Throughput {
  /** Answers per second over the run (every one 2xx, or the run throws). */
  rps: number;
  requests: number;
  /**
   * CPU time of this process's main thread (the servers' event loop) per answer, in µs: unlike req/s it hardly
   * moves when other work on the machine takes cores away, so layers can be compared on a busy machine.
   */
  cpuMicrosPerRequest: number;
}

/** `connections` keep-alive clients asking `url` for `seconds`, from a worker thread (throughput-worker.mjs). */
export async function measureThroughput(url: string, key: string, seconds: number, connections = 50) {
  const worker = new Worker(new URL('./throughput-worker.mjs', import.meta.url), {
    workerData: { url, key, connections, seconds },
  });
  const cpuBefore = mainThreadCpuMs();
  const result = await new Promise<{ requests: number; seconds: number; non2xx: number; errors: number }>(
    (resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    },
  );
  const cpuMs = mainThreadCpuMs() - cpuBefore;
  await worker.terminate();
  // A failing server answers fast: a run with any error or non-2xx answer is no throughput figure.
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  return {
    rps: result.requests / result.seconds,
    requests: result.requests,
    cpuMicrosPerRequest: (cpuMs * 1000) / result.requests,
  } satisfies Throughput;
}

/** User + system time of the main thread so far, from Linux's /proc (clock ticks of 10 ms); NaN elsewhere. */
function mainThreadCpuMs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}
