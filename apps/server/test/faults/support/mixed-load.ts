/** Outcome of one request of a load: its status, or `error` when the connection failed. */
export type Outcome = number | 'error';

/**
 * Keeps `clients` requests in flight until `stop()` resolves: each client sends `next(i)` after the previous one
 * answered. Returns every outcome, in order of completion.
 */
export async function runUntil(
  clients: number,
  next: (i: number) => Promise<Outcome>,
  stop: Promise<unknown>,
): Promise<Outcome[]> {
  let stopped = false;
  void stop.then(() => (stopped = true));
  const outcomes: Outcome[] = [];
  let sequence = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!stopped) outcomes.push(await next(sequence++).catch(() => 'error' as const));
    }),
  );
  return outcomes;
}
