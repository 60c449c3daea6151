/** The first SIGTERM or SIGINT, from the process's first line: a stop asked during the start is not lost. */
let received: NodeJS.Signals | undefined;
const stoppers: ((signal: NodeJS.Signals) => void)[] = [];

/** Called first by the entry: from now on a stop is recorded, and handed to whoever can stop (onStop). */
export function watchStopSignals(): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      received ??= signal;
      for (const stop of stoppers) stop(signal);
    });
  }
}

/** Runs `stop` on the next signal, or at once when one came already (during the start). */
export function onStop(stop: (signal: NodeJS.Signals) => void): void {
  stoppers.push(stop);
  if (received) stop(received);
}

/** Whether a stop was asked: a start that fails meanwhile failed because of it, not on its own. */
export const stopRequested = (): boolean => received !== undefined;
