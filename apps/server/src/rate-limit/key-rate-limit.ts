import type { Request, RequestHandler } from 'express';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { principalOf } from '../auth/principal.js';
import { RateLimitedError } from '../errors/domain-errors.js';

/** Spec 8: the soft read limit, for the three catalogue reads. */
const SOFT_READ_LIMIT = 60;
/** The `default` category of a key without its own `rate_limit_per_min` (docs/decisions.md). */
const DEFAULT_LIMIT = 600;
const READ_OPERATIONS = new Set(['GET /v1/venues', 'GET /v1/venues/:venue_id', 'GET /v1/venues/:venue_id/treatments']);

function category(req: Request): 'read' | 'default' {
  const route = req.tsRestRoute;
  return route && READ_OPERATIONS.has(`${route.method} ${route.path}`) ? 'read' : 'default';
}

/**
 * Per key and per category, in fixed one-minute windows counted by `limiter`. Sends the spec's X-RateLimit-*
 * headers on every answer and 429 with Retry-After past the limit. Off unless RATE_LIMIT_ENFORCED=true.
 */
export function keyRateLimit(limiter: RateLimiterAbstract): RequestHandler {
  return (req, res, next) => {
    const principal = principalOf(res);
    const kind = category(req);
    const limit = principal.rateLimitPerMin ?? (kind === 'read' ? SOFT_READ_LIMIT : DEFAULT_LIMIT);
    // A failing store (the database is down) rejects with its error, which the error mapper turns into 503.
    limiter.consume(`${principal.keyId}:${kind}`).then((counted) => {
      const msLeft = Math.max(counted.msBeforeNext, 0);
      res.setHeader('X-RateLimit-Limit', String(limit));
      res.setHeader('X-RateLimit-Remaining', String(Math.max(limit - counted.consumedPoints, 0)));
      res.setHeader('X-RateLimit-Reset', String(Math.ceil((Date.now() + msLeft) / 1000)));
      next(counted.consumedPoints > limit ? new RateLimitedError(Math.max(Math.ceil(msLeft / 1000), 1)) : undefined);
    }, next);
  };
}
