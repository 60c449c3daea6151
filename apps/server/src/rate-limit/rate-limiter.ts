import type pg from 'pg';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';

/** One-minute windows (spec: limits are per minute). */
export const WINDOW_SECONDS = 60;

/** The counter never refuses by itself: the limit depends on the caller, so the middleware compares the count. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/**
 * The store of the counts: on PostgreSQL, the `rate_limits` table (migration 0002_rate_limits), so every server
 * process on the database shares one count per key and a restart forgets nothing; on the embedded database,
 * which only ever has one server process, memory.
 */
export function createRateLimiter(
  pool: pg.Pool | undefined,
  window: { seconds: number; keyPrefix?: string } = { seconds: WINDOW_SECONDS },
): RateLimiterAbstract {
  const options = {
    points: UNBOUNDED,
    duration: window.seconds,
    ...(window.keyPrefix !== undefined && { keyPrefix: window.keyPrefix }),
  };
  if (!pool) return new RateLimiterMemory(options);
  return new RateLimiterPostgres({
    ...options,
    storeClient: pool,
    storeType: 'pool',
    tableName: 'rate_limits',
    tableCreated: true,
    // Expired windows are deleted by the retention job, in small batches (retention/retention-rules.ts).
    clearExpiredByTimeout: false,
  });
}
