import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { MetricsTokenError } from '../errors/domain-errors.js';
import type { Metrics } from './metrics.js';

/** GET /metrics in Prometheus text format; with a token set, only for `Authorization: Bearer <token>`. */
export function metricsEndpoint(metrics: Metrics, token: string | undefined): RequestHandler {
  const expected = token === undefined ? undefined : Buffer.from(`Bearer ${token}`);
  return (req, res, next) => {
    if (expected) {
      const given = Buffer.from(req.get('authorization') ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return next(new MetricsTokenError());
    }
    metrics.registry.metrics().then((text) => {
      // end(), not send(): Express would reorder the content type's parameters.
      res.setHeader('Content-Type', metrics.registry.contentType);
      res.end(text);
    }, next);
  };
}
