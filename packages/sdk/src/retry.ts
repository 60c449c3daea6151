/**
 * When a request may be sent again. A few lines, so no retry library: the rules are the API's own.
 * Reads are always safe; a booking create only with an external_id (the API replays the original);
 * 409 duplicate_external_id means the first attempt is still in flight, so waiting and retrying gets its answer.
 */
export interface RetryOptions {
  /**
   * Attempts in all, the first included (1 = never retry).
   * @deprecated Use `maxRetries` (attempts minus one) on the client or on a call.
   */
  attempts: number;
  /** First backoff delay in ms; doubles on each retry, with jitter. */
  baseDelayMs: number;
  /** Longest wait between attempts; a Retry-After longer than this returns the 429/503 instead of waiting. */
  maxDelayMs: number;
}

export const defaultRetry: RetryOptions = { attempts: 4, baseDelayMs: 200, maxDelayMs: 10_000 };

/** The client's policy: `maxRetries` when given, else the older `retry.attempts` or `retry: false`. */
export function resolveRetry(
  option: Partial<RetryOptions> | false | undefined,
  maxRetries: number | undefined,
): RetryOptions {
  const policy = option === false ? { ...defaultRetry, attempts: 1 } : { ...defaultRetry, ...option };
  return maxRetries === undefined ? policy : { ...policy, attempts: maxRetries + 1 };
}

/** An answer worth retrying on a safe request. 501 is not: the endpoint does not exist yet. */
export function isRetryableAnswer(status: number, code: string | undefined): boolean {
  if (status === 429 || (status >= 500 && status !== 501)) return true;
  return status === 409 && code === 'duplicate_external_id';
}

/** No answer at all: fetch's TypeError (refused, reset, DNS). The transport tells its own timeouts apart. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}

export function backoff(attempt: number, options: RetryOptions): number {
  return Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2));
}

/** The wait before the next attempt, or undefined when Retry-After asks for longer than maxDelayMs. */
export function retryDelay(
  attempt: number,
  options: RetryOptions,
  retryAfter: string | null,
  now = Date.now(),
): number | undefined {
  const asked = parseRetryAfter(retryAfter, now);
  if (asked === undefined) return backoff(attempt, options);
  return asked <= options.maxDelayMs ? asked : undefined;
}

/** Retry-After is delta-seconds or an HTTP date (RFC 9110 §10.2.3); anything else is ignored. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
