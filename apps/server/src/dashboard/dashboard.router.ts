import { DESK_EVENTS_PATH, dashboardContract } from '@spa/contract/dashboard';
import type { AppRouter } from '@ts-rest/core';
import { createExpressEndpoints } from '@ts-rest/express';
import type { Express, RequestHandler } from 'express';
import { rejectBadBody } from '../http/json-body.js';
import { checkResponses } from '../http/response-check.js';
import { rejectNulCharacters, rejectUndecodablePath } from '../http/unsafe-input.js';
import { auditEventsRouter } from './audit-events.router.js';
import { dashboardGuard } from './dashboard-guard.js';
import { deskEvents } from './desk-events.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { invitationsRouter } from './invitations.router.js';
import { bookingsRouter } from './bookings.router.js';
import { keyRouter } from './key.router.js';
import { webhookDeliveriesRouter } from './webhook-deliveries.router.js';
import { webhookEndpointsRouter } from './webhook-endpoints.router.js';
import { sessionRouter } from './session.router.js';
import { usersRouter } from './users.router.js';
import { readDashboardMode } from './dashboard-mode.js';

/** Where the dashboard's JSON API lives; the web app under /dashboard is served apart from it. */
export const DASHBOARD_API = '/dashboard/api';

/**
 * Mounts the dashboard API on the app, one area at a time: each area's contract router with its implementation.
 * In front of each route, the session guard (Origin, session, CSRF token), then the held-back body error and the
 * NUL check the partner API has too. Errors go to the app's one error mapper like every other route's.
 */
export function mountDashboardApi(app: Express, deps: DashboardDeps, options: { validateResponses: boolean }): void {
  const guard = dashboardGuard(deps);
  app.use(DASHBOARD_API, rejectUndecodablePath(guard));
  const globalMiddleware: RequestHandler[] = [guard, readDashboardMode, rejectBadBody, rejectNulCharacters];

  function mount<T extends AppRouter>(contract: T, router: Parameters<typeof createExpressEndpoints<T>>[1]) {
    createExpressEndpoints(contract, options.validateResponses ? checkResponses(contract, router) : router, app, {
      logInitialization: false,
      jsonQuery: false,
      responseValidation: false,
      globalMiddleware,
      requestValidationErrorHandler: (error, _req, _res, next) => next(error),
    });
  }

  // Server-sent events for the venue desk: a plain route (EventSource reads it), behind the same session guard.
  app.get(DESK_EVENTS_PATH, guard, deskEvents({ db: deps.db, clock: deps.clock, feed: deps.deskFeed }));
  mount(dashboardContract.session, sessionRouter(deps));
  mount(dashboardContract.invitations, invitationsRouter(deps));
  mount(dashboardContract.users, usersRouter(deps));
  mount(dashboardContract.auditEvents, auditEventsRouter(deps));
  mount(dashboardContract.key, keyRouter(deps));
  mount(dashboardContract.webhookEndpoints, webhookEndpointsRouter(deps));
  mount(dashboardContract.webhookDeliveries, webhookDeliveriesRouter(deps));
  mount(dashboardContract.bookings, bookingsRouter(deps));
}
