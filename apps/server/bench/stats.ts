/** Nearest-rank percentile of a sample (a dozen lines do not justify a dependency). */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function summary(samples: number[]) {
  return {
    runs: samples.length,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    max: Math.max(...samples),
  };
}

export const ms = (value: number) => `${value.toFixed(2)} ms`;

export async function timed<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const start = performance.now();
  const result = await fn();
  return [performance.now() - start, result];
}

export function verdict(label: string, value: number, target: number, unit: string, higherIsBetter = false): string {
  const ok = higherIsBetter ? value >= target : value <= target;
  return `${ok ? 'MEETS' : 'MISSES'}  ${label}: ${value.toFixed(2)} ${unit} (target ${higherIsBetter ? '>=' : '<='} ${target} ${unit})`;
}
