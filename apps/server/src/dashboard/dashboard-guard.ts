import { dashboardContract } from '@spa/contract/dashboard';
import type { AppRoute } from '@ts-rest/core';
import type { RequestHandler } from 'express';
import { dashboardForbidden } from '../errors/dashboard-errors.js';
import { setActor } from './dashboard-actor.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { dashboardOriginOf, originRefused } from './dashboard-origin.js';
import { clearSessionCookie, sessionTokenOf } from './session-cookie.js';
import { loadActor } from './session.service.js';
import { sameSecret } from './tokens.js';

/** Methods that change nothing: they need neither the CSRF token nor the Origin. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Routes reached before there is a session: signing in and the invitation pages. */
const OPEN_ROUTES: ReadonlySet<AppRoute> = new Set([
  dashboardContract.session.signIn,
  dashboardContract.invitations.get,
  dashboardContract.invitations.accept,
]);

/**
 * In front of every dashboard route. A state-changing request must come from the dashboard's own origin
 * (Origin header: PUBLIC_URL's when set, else the request's own scheme and Host), even without a session (sign-in, accepting an invitation), else 403 `Forbidden`. Every other
 * route needs a live session (401 `Not signed in`, and the stale cookie is cleared), and a state-changing one the
 * session's CSRF token in X-CSRF-Token (403 `Forbidden`). Nothing runs, so nothing changes, before these pass.
 */
export function dashboardGuard(deps: Pick<DashboardDeps, 'db' | 'clock' | 'origin' | 'secureCookies'>): RequestHandler {
  return (req, res, next) => {
    const changes = !SAFE_METHODS.has(req.method);
    if (changes && req.get('origin') !== dashboardOriginOf(deps, req)) return next(originRefused(deps, req));
    if (req.tsRestRoute && OPEN_ROUTES.has(req.tsRestRoute)) return next();
    loadActor(deps, sessionTokenOf(req)).then(
      (actor) => {
        if (changes && !sameSecret(req.get('x-csrf-token') ?? '', actor.csrfToken)) return next(dashboardForbidden());
        setActor(res, actor);
        next();
      },
      (error: unknown) => {
        if (sessionTokenOf(req)) clearSessionCookie(res, deps.secureCookies);
        next(error);
      },
    );
  };
}
