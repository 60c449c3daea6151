import { contract } from '@spa/contract';
import type { Request, RequestHandler } from 'express';
import type { Metrics } from './metrics.js';

/** The route pattern (`/v1/venues/:venue_id`), never the raw URL: one series per route, whatever callers send. */
function routeOf(req: Request): string {
  if (req.tsRestRoute) return req.tsRestRoute.path;
  const route = (req as { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? route.path : 'unmatched';
}

/** Times every request and counts it by route and status; a 201 create and a 200 cancel count as bookings. */
export function httpMetrics(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const stop = metrics.httpDuration.startTimer();
    res.once('finish', () => {
      const labels = { method: req.method, route: routeOf(req), status: String(res.statusCode) };
      stop(labels);
      metrics.httpRequests.inc(labels);
      if (req.tsRestRoute === contract.bookings.create && res.statusCode === 201) metrics.bookingsCreated.inc();
      if (req.tsRestRoute === contract.bookings.cancel && res.statusCode === 200) metrics.bookingsCancelled.inc();
    });
    next();
  };
}
