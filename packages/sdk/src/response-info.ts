import { parseRetryAfter } from './retry.js';

/** The key's rate limit in the route's category, from the `X-RateLimit-*` headers (sent when the API enforces it). */
export interface RateLimit {
  /** Requests allowed per minute (`X-RateLimit-Limit`). */
  limit: number;
  /** Requests left in the current one-minute window (`X-RateLimit-Remaining`). */
  remaining: number;
  /** When the window ends, in Unix seconds (`X-RateLimit-Reset`). */
  reset: number;
}

/**
 * What every answer carries besides its body, on successes and failures alike (`result.lastResponse`): the answer
 * to the call's last attempt when it was retried.
 */
export interface ResponseInfo {
  status: number;
  /**
   * The answer's `X-Request-Id`: quote it to support. It is the id this call sent (your `requestId`, else one the SDK
   * made), the same on every attempt, unless the API replaced an id it found unfit or a proxy answered without one.
   */
  requestId: string;
  /** Absent when the API does not enforce rate limits, or on a 401 (no key, no limit). */
  rateLimit: RateLimit | undefined;
  /** `Retry-After` in milliseconds, on a 429 or 503 (seconds or an HTTP date on the wire). */
  retryAfterMs: number | undefined;
  /** Attempts the call made, the first included: 1 unless it was retried. */
  attempts: number;
  /** Every header of the answer. */
  headers: Headers;
}

export function responseInfo(status: number, headers: Headers, sentRequestId: string, attempts: number): ResponseInfo {
  return {
    status,
    requestId: headers.get('x-request-id') ?? sentRequestId,
    rateLimit: rateLimitOf(headers),
    retryAfterMs: parseRetryAfter(headers.get('retry-after')),
    attempts,
    headers,
  };
}

/** The three headers as whole numbers, or undefined unless all three are. */
export function rateLimitOf(headers: Headers): RateLimit | undefined {
  const [limit, remaining, reset] = ['limit', 'remaining', 'reset'].map((name) =>
    wholeNumber(headers.get(`x-ratelimit-${name}`)),
  );
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  return { limit, remaining, reset };
}

function wholeNumber(value: string | null): number | undefined {
  return value !== null && /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : undefined;
}
