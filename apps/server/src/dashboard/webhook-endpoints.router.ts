import { dashboardContract } from '@spa/contract/dashboard';
import { initServer } from '@ts-rest/express';
import { Temporal } from 'temporal-polyfill';
import { pageWindow, paginated } from '../http/pagination.js';
import { removeEndpoint, rotateSecret } from '../webhooks/endpoints.service.js';
import { actorOf } from './dashboard-actor.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { requireRecentConfirmation, requireRole } from './guards.js';
import { trailOf } from './resource-access.js';
import {
  createDashboardEndpoint,
  dashboardEndpoint,
  dashboardEndpointDetail,
  listDashboardEndpoints,
  replayFailedDeliveries,
  setDashboardEndpointEnabled,
  testDashboardEndpoint,
  updateDashboardEndpoint,
} from './webhook-endpoints.service.js';
import { livemodeOf } from './dashboard-mode.js';

/** The organisation's webhook endpoints (admin), through the services of the CLI's `webhooks` commands. */
export function webhookEndpointsRouter(deps: DashboardDeps) {
  const { db, clock, vault } = deps;
  const admin = [requireRole('admin')];
  return initServer().router(dashboardContract.webhookEndpoints, {
    list: {
      middleware: admin,
      handler: async ({ query, res }) => {
        const all = await listDashboardEndpoints(deps, actorOf(res).organisationId, livemodeOf(res));
        const { offset, limit } = pageWindow(query);
        return { status: 200, body: paginated(all.slice(offset, offset + limit), query, all.length) };
      },
    },
    create: {
      middleware: admin,
      handler: async ({ body, req, res }) => {
        const created = await createDashboardEndpoint(deps, {
          organisationId: actorOf(res).organisationId,
          livemode: livemodeOf(res),
          url: body.url,
          events: body.events,
          venueId: body.venue_id,
          audit: trailOf(req, res, clock),
        });
        return { status: 201, body: { data: created } };
      },
    },
    remove: {
      middleware: admin,
      handler: async ({ params, req, res }) => {
        const { organisationId } = actorOf(res);
        await dashboardEndpoint(deps, organisationId, livemodeOf(res), params.id);
        await removeEndpoint(db, params.id, { organisationId, audit: trailOf(req, res, clock), now: clock.now() });
        return { status: 204, body: undefined };
      },
    },
    rotateSecret: {
      middleware: [...admin, requireRecentConfirmation(clock)],
      handler: async ({ params, req, res }) => {
        const { organisationId } = actorOf(res);
        await dashboardEndpoint(deps, organisationId, livemodeOf(res), params.id);
        const rotated = await rotateSecret(db, vault, params.id, {
          organisationId,
          audit: trailOf(req, res, clock),
          now: clock.now(),
        });
        const until = Temporal.Instant.from(rotated.previousValidUntil);
        return {
          status: 200,
          body: {
            data: {
              id: rotated.id,
              secret: rotated.secret,
              previous_secret_expires_at: until.round({ smallestUnit: 'second', roundingMode: 'trunc' }).toString(),
            },
          },
        };
      },
    },
    get: {
      middleware: admin,
      handler: async ({ params, res }) => ({
        status: 200,
        body: { data: await dashboardEndpointDetail(deps, actorOf(res).organisationId, livemodeOf(res), params.id) },
      }),
    },
    update: {
      middleware: admin,
      handler: async ({ params, body, req, res }) => {
        const endpoint = await updateDashboardEndpoint(deps, {
          organisationId: actorOf(res).organisationId,
          livemode: livemodeOf(res),
          endpointId: params.id,
          url: body.url,
          events: body.events,
          venueId: body.venue_id,
          audit: trailOf(req, res, clock),
        });
        return { status: 200, body: { data: endpoint } };
      },
    },
    disable: {
      middleware: admin,
      handler: async ({ params, req, res }) => {
        const input = { organisationId: actorOf(res).organisationId, livemode: livemodeOf(res), endpointId: params.id };
        const endpoint = await setDashboardEndpointEnabled(deps, {
          ...input,
          enabled: false,
          audit: trailOf(req, res, clock),
        });
        return { status: 200, body: { data: endpoint } };
      },
    },
    enable: {
      middleware: admin,
      handler: async ({ params, req, res }) => {
        const input = { organisationId: actorOf(res).organisationId, livemode: livemodeOf(res), endpointId: params.id };
        const endpoint = await setDashboardEndpointEnabled(deps, {
          ...input,
          enabled: true,
          audit: trailOf(req, res, clock),
        });
        return { status: 200, body: { data: endpoint } };
      },
    },
    replayFailed: {
      middleware: admin,
      handler: async ({ params, req, res }) => {
        const deliveries = await replayFailedDeliveries(deps, {
          organisationId: actorOf(res).organisationId,
          livemode: livemodeOf(res),
          endpointId: params.id,
          audit: trailOf(req, res, clock),
        });
        return { status: 200, body: { data: { deliveries } } };
      },
    },
    test: {
      middleware: admin,
      handler: async ({ params, body, req, res }) => {
        const outcome = await testDashboardEndpoint(deps, {
          organisationId: actorOf(res).organisationId,
          livemode: livemodeOf(res),
          endpointId: params.id,
          type: body?.type,
          audit: trailOf(req, res, clock),
        });
        return { status: 200, body: { data: outcome } };
      },
    },
  });
}
