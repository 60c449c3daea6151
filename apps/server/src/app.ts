import { contract } from '@spa/contract';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import express, { type Express, type RequestHandler, Router } from 'express';
import type { AppDeps, RouteDeps } from './app-deps.js';
import { uncachedKeyLookup } from './auth/api-key-cache.js';
import { authenticate } from './auth/authenticate.js';
import { availabilityRouter } from './availability/availability.router.js';
import { bookingsRouter } from './bookings/bookings.router.js';
import { customersRouter } from './customers/customers.router.js';
import { eventsRouter } from './events/events.router.js';
import { dashboardSettings } from './dashboard/dashboard-deps.js';
import { DASHBOARD_API, mountDashboardApi } from './dashboard/dashboard.router.js';
import { SignInThrottle } from './dashboard/sign-in-throttle.js';
import { dashboardStatic, noStore } from './dashboard/static.js';
import { primaryReads } from './db/read-replicas.js';
import { healthRouter } from './health/health.router.js';
import { Lifecycle } from './health/lifecycle.js';
import { RouteNotFoundError, ServiceUnavailableError } from './errors/domain-errors.js';
import { errorMapper } from './http/error-mapper.js';
import { jsonBody, rejectBadBody } from './http/json-body.js';
import { plainFirst, type QueryParser } from './http/query-parser.js';
import { requestLog } from './http/request-log.js';
import { requestId } from './http/request-id.js';
import { checkResponses } from './http/response-check.js';
import { rejectNulCharacters, rejectUndecodablePath } from './http/unsafe-input.js';
import { createLogger } from './logger.js';
import { httpMetrics } from './metrics/http-metrics.js';
import { Metrics } from './metrics/metrics.js';
import { metricsEndpoint } from './metrics/metrics.router.js';
import { servedReference } from './openapi/served-reference.js';
import { keyRateLimit } from './rate-limit/key-rate-limit.js';
import { createRateLimiter } from './rate-limit/rate-limiter.js';
import { treatmentsRouter } from './treatments/treatments.router.js';
import { venuesRouter } from './venues/venues.router.js';
import { readSettings } from './config/config.js';
import { testHelpersRouter } from './bookings/test-helpers.router.js';

/** Paths of the partner API, as Express matches a mount path (`app.use('/v1')`): case-insensitive. */
const API_PATH = /^\/v1\/?(?=\/|$)/i;

/** The probes' paths (health.router.ts), as Express matches its routes: case-insensitive, an optional final slash. */
const HEALTH_PATH = /^\/(?:healthz|readyz)\/?$/i;

/** `handler` for the paths `path` matches; every other request passes it by without the cost of a router. */
const onlyOn =
  (path: RegExp, handler: RequestHandler): RequestHandler =>
  (req, res, next) =>
    path.test(req.path) ? handler(req, res, next) : next();

const routeNotFound: RequestHandler = (_req, _res, next) => next(new RouteNotFoundError());

/** The HTTP application, separate from the process that listens (main.ts), so tests drive it directly. */
export function createApp(deps: AppDeps): Express {
  const logger = deps.logger ?? createLogger();
  const routeDeps: RouteDeps = {
    db: deps.db,
    reads: deps.reads ?? primaryReads(deps.db),
    clock: deps.clock,
    vault: deps.vault,
    availabilityPool: deps.availabilityPool,
    availabilityCache: deps.availabilityCache,
    // Tests check every answer against the contract; production sends what the typed mappers built, unparsed,
    // unless RESPONSE_VALIDATION=true (docs/decisions.md, "Response validation").
    validateResponses: deps.config.responseValidation ?? true,
  };
  const lifecycle = deps.lifecycle ?? new Lifecycle();
  const metrics = deps.metrics ?? new Metrics({ pool: deps.pool, defaultMetrics: false });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', plainFirst(app.get('query parser fn') as QueryParser));
  app.use(requestId);
  app.use(httpMetrics(metrics));
  // Probes and scrapes come before the request log: they arrive every few seconds and need no key.
  app.use(onlyOn(HEALTH_PATH, healthRouter(deps.db, lifecycle)));
  app.get('/metrics', metricsEndpoint(metrics, deps.config.metricsToken));
  app.use(requestLog(logger));
  // Until the database is migrated (main.ts retries while it comes up), the API answers 503 with Retry-After.
  const notStarting: RequestHandler = (_req, _res, next) =>
    next(lifecycle.state === 'starting' ? new ServiceUnavailableError() : undefined);
  const body = jsonBody(deps.bodyDeadlineMs);

  // The partner API, in a router of its own that /v1 paths reach at once: none of the layers between here and the
  // catch-all below (pages, the dashboard's ~40) can match one, so walking them was wasted on every API request.
  // Its first layers are the ones the app runs for every other path: the same checks in the same order.
  const authenticated = authenticate(deps.apiKeys ?? uncachedKeyLookup(deps.db), routeDeps.vault);
  const unreadablePath = rejectUndecodablePath(authenticated);
  const api = Router();
  api.use(notStarting, body, unreadablePath);
  const globalMiddleware: RequestHandler[] = [authenticated];
  if (deps.config.rateLimitEnforced) globalMiddleware.push(keyRateLimit(createRateLimiter(deps.pool)));
  globalMiddleware.push(rejectBadBody, rejectNulCharacters);
  const validated = routeDeps.validateResponses;
  const router = initServer().router(contract, {
    venues: venuesRouter(routeDeps),
    treatments: treatmentsRouter(routeDeps),
    customers: customersRouter(routeDeps),
    availability: availabilityRouter(routeDeps),
    bookings: bookingsRouter(routeDeps),
    events: eventsRouter(routeDeps),
    testHelpers: testHelpersRouter(routeDeps),
  });
  createExpressEndpoints(contract, validated ? checkResponses(contract, router) : router, api, {
    logInitialization: false,
    jsonQuery: false,
    responseValidation: false,
    globalMiddleware,
    requestValidationErrorHandler: (error, _req, _res, next) => next(error),
  });
  // Its own 404 ends it with an error, as the app's would: an unmatched OPTIONS gets a 404, not Express's Allow list.
  api.use(routeNotFound);
  app.use(onlyOn(API_PATH, api));
  // Every dashboard API answer, an error or a 503 included, may carry a person's data or a secret: never stored.
  app.use(DASHBOARD_API, noStore, notStarting);
  app.use(body);

  // The interactive reference and the raw document, both generated from the contract.
  const reference = servedReference(deps.config.publicUrl);
  app.get('/openapi.json', reference.json);
  app.use('/docs', reference.page);
  // The dashboard's web app (apps/dashboard); its JSON API under /dashboard/api passes through to the routes below.
  app.use('/dashboard', dashboardStatic(deps.dashboardDir));

  // The dashboard's JSON API: cookie sessions, never an API key, so it is mounted before the partner API's key check.
  mountDashboardApi(
    app,
    {
      db: deps.db,
      clock: deps.clock,
      vault: routeDeps.vault,
      availabilityCache: deps.availabilityCache,
      deskFeed: deps.deskFeed,
      throttle: SignInThrottle.create(deps.pool),
      webhooks: deps.webhooks ?? readSettings(process.env).webhooks,
      ...dashboardSettings(deps.config.publicUrl, deps.config.publicUrlSet ?? true),
    },
    { validateResponses: validated },
  );

  // Every other path: an undecodable one is refused as the API's are (after the key check), the rest is a 404.
  app.use(unreadablePath);
  app.use(routeNotFound);
  app.use(errorMapper);
  return app;
}
