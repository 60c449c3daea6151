import type { Role } from '@spa/contract/dashboard';
import type { NextFunction, Response } from 'express';
import { Temporal } from 'temporal-polyfill';
import { dashboardForbidden, recentSignInRequired } from '../errors/dashboard-errors.js';
import type { Clock } from '../lib/clock.js';
import { actorOf, type DashboardActor } from './dashboard-actor.js';

/** How long a password confirmation allows key reveal, key regenerate and secret rotation. */
export const CONFIRMATION_WINDOW = Temporal.Duration.from({ minutes: 5 });

/**
 * Middleware of one route (ts-rest's `middleware: [...]`), run after the session guard and before the request is
 * validated, so a refused role never learns what a valid body looks like. The request is not read: `unknown` lets
 * it stand for every route's typed request.
 */
export type RouteGuard = (req: unknown, res: Response, next: NextFunction) => void;

/** Route middleware: a person of another role is refused with 403 `Forbidden` (desk on admin routes). */
export function requireRole(role: Role): RouteGuard {
  return (_req, res, next) => {
    next(actorOf(res).role === role ? undefined : dashboardForbidden());
  };
}

/** Until when the actor's last password confirmation counts, or null when it no longer does (or never did). */
export function confirmedUntil(actor: Pick<DashboardActor, 'confirmedAt'>, now: Temporal.Instant) {
  if (!actor.confirmedAt) return null;
  const until = actor.confirmedAt.add(CONFIRMATION_WINDOW);
  return Temporal.Instant.compare(until, now) > 0 ? until : null;
}

/** Route middleware: without a password confirmation in the last 5 minutes, 403 `Recent sign-in required`. */
export function requireRecentConfirmation(clock: Clock): RouteGuard {
  return (_req, res, next) => {
    next(confirmedUntil(actorOf(res), clock.now()) ? undefined : recentSignInRequired());
  };
}

/**
 * Whether the actor may see a record of this venue: an admin sees every venue of the organisation (the caller has
 * already scoped the query to it), a desk person only the listed ones. A record they may not see is a 404.
 */
export function canSeeVenue(actor: Pick<DashboardActor, 'role' | 'venueIds'>, venueId: string): boolean {
  return actor.role === 'admin' || actor.venueIds.includes(venueId);
}

/**
 * The venue ids to restrict a query to, or null for every venue of the organisation (admin). Queries also filter
 * by the organisation, so a desk person's list can never reach another organisation's venue.
 */
export function visibleVenueIds(actor: Pick<DashboardActor, 'role' | 'venueIds'>): readonly string[] | null {
  return actor.role === 'admin' ? null : actor.venueIds;
}
