import type { Request, RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { principalOf } from '../auth/principal.js';
import { RateLimitedError } from './domain-errors.js';

/** docs/api.md, "Rate limits": the soft read limit, for the three catalogue reads. */
const SOFT_READ_LIMIT = 60;
const READ_OPERATIONS = new Set(['GET /v1/venues', 'GET /v1/venues/:venue_id', 'GET /v1/venues/:venue_id/treatments']);

function category(req: Request): 'read' | 'default' {
  const route = req.tsRestRoute;
  return route && READ_OPERATIONS.has(`${route.method} ${route.path}`) ? 'read' : 'default';
}

/**
 * Per key and per category, one-minute windows (express-rate-limit, in memory: one process serves the API).
 * Off unless RATE_LIMIT_ENFORCED=true, as docs/api.md ("Rate limits") says.
 */
export function keyRateLimit(): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: (req, res) => {
      const perKey = principalOf(res).rateLimitPerMin;
      if (category(req) === 'read') return perKey ?? SOFT_READ_LIMIT;
      return perKey ?? 600;
    },
    keyGenerator: (req, res) => `${principalOf(res).keyId}:${category(req)}`,
    legacyHeaders: true,
    standardHeaders: false,
    handler: (_req, _res, next) => next(new RateLimitedError()),
  });
}
