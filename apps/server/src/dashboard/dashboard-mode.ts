import type { NextFunction, Request, Response } from 'express';
import { dashboardForbidden } from '../errors/dashboard-errors.js';
import { ValidationError } from '../errors/domain-errors.js';
import type { DashboardActor } from './dashboard-actor.js';

/**
 * Which mode's data a dashboard request reads and changes: `?mode=test` on any JSON route, live without it. The
 * mode travels with each request, as Stripe's dashboard keeps it in its URLs: two tabs may show the two modes, and
 * nothing a person set earlier changes what a link shows. Test mode is an admin's view only; the venue desk sees live
 * bookings, so a desk person asking for it is refused.
 */
export function readDashboardMode(req: Request, res: Response, next: NextFunction): void {
  const raw = req.query['mode'];
  if (raw === undefined || raw === 'live') return next();
  if (raw !== 'test') return next(ValidationError.field('mode', 'mode must be live or test'));
  const actor = res.locals.dashboardActor as DashboardActor | undefined;
  if (actor && actor.role !== 'admin') return next(dashboardForbidden('Test mode is for admins'));
  res.locals.dashboardLivemode = false;
  next();
}

/** The request's mode (readDashboardMode set it): true for live. */
export function livemodeOf(res: Response): boolean {
  return res.locals.dashboardLivemode !== false;
}
