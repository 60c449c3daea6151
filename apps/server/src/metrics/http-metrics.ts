import { contract } from '@spa/contract';
import type { Request, RequestHandler, Response } from 'express';
import type { Metrics } from './metrics.js';

/** The route pattern (`/v1/venues/:venue_id`), never the raw URL: one series per route, whatever callers send. */
function routeOf(req: Request): string {
  if (req.tsRestRoute) return req.tsRestRoute.path;
  const route = (req as { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? route.path : 'unmatched';
}

const STARTED = Symbol('http metrics: started');
/** In `res.locals`, not on the response: see request-log.ts for why. */
const timed = (res: Response) => res.locals as { [STARTED]: number };

/** Times every request and counts it by route and status; a 201 create and a 200 cancel count as bookings. */
export function httpMetrics(metrics: Metrics): RequestHandler {
  // One listener shared by every response (`this`), rather than a timer closure and a listener closure per request.
  function finished(this: Response) {
    const req = this.req;
    const labels = { method: req.method, route: routeOf(req), status: String(this.statusCode) };
    metrics.httpDuration.observe(labels, (performance.now() - timed(this)[STARTED]) / 1000);
    metrics.httpRequests.inc(labels);
    if (req.tsRestRoute === contract.bookings.create && this.statusCode === 201) metrics.bookingsCreated.inc();
    if (req.tsRestRoute === contract.bookings.cancel && this.statusCode === 200) metrics.bookingsCancelled.inc();
  }
  return (_req, res, next) => {
    timed(res)[STARTED] = performance.now();
    res.once('finish', finished);
    next();
  };
}
