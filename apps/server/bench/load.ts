import { Worker } from 'node:worker_threads';

export interface LoadResult {
  latencies: number[];
  /** Latencies of the 2xx answers. */
  okLatencies: number[];
  statuses: Map<number, number>;
  /** Response body bytes received. */
  bytes: number;
  seconds: number;
}

type Job =
  | { mode: 'post'; url: string; key: string; bodies: object[]; clients: number; urls?: string[] }
  | { mode: 'get'; urls: string[]; key: string }
  | { mode: 'loop'; url: string; key: string; clients: number; seconds: number };

/** Runs a load job on a worker thread (load-worker.mjs) and returns its latencies and status counts. */
export async function runLoad(job: Job): Promise<LoadResult> {
  const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), { workerData: job });
  const result = await new Promise<{
    latencies: number[];
    okLatencies: number[];
    statuses: Record<string, number>;
    bytes: number;
    seconds: number;
  }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  return { ...result, statuses: new Map(Object.entries(result.statuses).map(([k, v]) => [Number(k), v])) };
}
