/**
 * When a request may be sent again. A dozen lines, so no retry library: the rules are the API's own.
 * Reads are always safe; a booking create only with an external_id (the API replays the original);
 * 409 duplicate_external_id means the first attempt is still in flight, so waiting and retrying gets its answer.
 */
export interface RetryOptions {
  /** Attempts in all, the first included. */
  attempts: number;
  /** First delay in ms; doubles each time, with jitter, unless Retry-After says otherwise. */
  baseDelayMs: number;
}

export const defaultRetry: RetryOptions = { attempts: 4, baseDelayMs: 200 };

export function isRetryable(input: { method: string; idempotent: boolean; status?: number; code?: string }): boolean {
  const safe = input.method === 'GET' || input.idempotent;
  if (!safe) return false;
  if (input.status === undefined) return true; // network error: no answer at all
  if (input.status === 429 || input.status >= 500) return true;
  return input.status === 409 && input.code === 'duplicate_external_id';
}

export function delayFor(attempt: number, options: RetryOptions, retryAfter: string | null): number {
  const seconds = retryAfter === null ? NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  return options.baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
