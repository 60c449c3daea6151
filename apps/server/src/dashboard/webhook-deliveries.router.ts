import { DashboardErrorText, dashboardContract } from '@spa/contract/dashboard';
import { initServer } from '@ts-rest/express';
import { notFound } from '../errors/dashboard-errors.js';
import { pageWindow, paginated } from '../http/pagination.js';
import { findDeliveryOf, listDeliveriesOf } from '../webhooks/delivery-log.repository.js';
import { replay } from '../webhooks/endpoints.service.js';
import { actorOf } from './dashboard-actor.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { toDelivery, toDeliveryDetail } from './delivery.mapper.js';
import { requireRole } from './guards.js';
import { trailOf } from './resource-access.js';
import { livemodeOf } from './dashboard-mode.js';

/** The organisation's deliveries with their attempts, and replay (admin), as `webhooks deliveries|replay` do. */
export function webhookDeliveriesRouter({ db, clock }: DashboardDeps) {
  const admin = [requireRole('admin')];
  return initServer().router(dashboardContract.webhookDeliveries, {
    list: {
      middleware: admin,
      handler: async ({ query, res }) => {
        const { rows, total } = await listDeliveriesOf(
          db,
          actorOf(res).organisationId,
          livemodeOf(res),
          {
            endpointId: query.endpoint_id,
            status: query.status,
            eventType: query.event_type,
            eventOrBookingId: query.q,
          },
          pageWindow(query),
        );
        return { status: 200, body: paginated(rows.map(toDelivery), query, total) };
      },
    },
    get: {
      middleware: admin,
      handler: async ({ params, res }) => {
        const row = await findDeliveryOf(
          db,
          actorOf(res).organisationId,
          livemodeOf(res),
          params.event_id,
          params.endpoint_id,
        );
        if (!row) throw notFound(DashboardErrorText.WebhookEventNotFound);
        return { status: 200, body: { data: toDeliveryDetail(row) } };
      },
    },
    replay: {
      middleware: admin,
      handler: async ({ params, body, req, res }) => {
        const { organisationId } = actorOf(res);
        const event = await db
          .selectFrom('webhook_events')
          .select('id')
          .where('id', '=', params.event_id)
          .where('organisation_id', '=', organisationId)
          .where('livemode', '=', livemodeOf(res))
          .executeTakeFirst();
        if (!event) throw notFound(DashboardErrorText.WebhookEventNotFound);
        const replayed = await replay(db, event.id, {
          organisationId,
          endpointId: body?.endpoint_id,
          audit: trailOf(req, res, clock),
          now: clock.now(),
        });
        return { status: 200, body: { data: { event_id: replayed.id, deliveries: replayed.queued } } };
      },
    },
  });
}
