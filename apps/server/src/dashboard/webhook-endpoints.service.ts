import { DashboardErrorText, type TestDelivery, type WebhookEndpoint } from '@spa/contract/dashboard';
import type { WebhookEventType } from '@spa/contract';
import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { z } from 'zod';
import type { AuditTrail } from '../audit/audit-trail.js';
import { DashboardError, notFound, SentenceError } from '../errors/dashboard-errors.js';
import { attemptDeps, type WebhookDeps } from './webhook-deps.js';
import { deliverNow, leaseSecondsFor } from '../webhooks/attempt-delivery.js';
import { disableEndpoint, replayFailedOf } from '../webhooks/deliveries.repository.js';
import { countDailySince, countSettledSince } from '../webhooks/delivery-log.repository.js';
import {
  addEndpointTo,
  checkedUrl,
  EndpointLimitError,
  listEndpointsOf,
  UnsafeUrlRefusal,
} from '../webhooks/endpoints.service.js';
import { sampleBookingEvent } from './sample-event.js';
import { DisabledEndpointError, queueTestEvent } from '../webhooks/test-event.js';

/** The window of an endpoint's recent success rate. */
const RECENT = Temporal.Duration.from({ hours: 7 * 24 });

type Endpoint = z.infer<typeof WebhookEndpoint>;

/** The organisation's endpoints as the dashboard shows them, with their last 7 days of settled deliveries. */
export async function listDashboardEndpoints(
  deps: WebhookDeps,
  organisationId: string,
  livemode: boolean,
  endpointId?: string,
) {
  const [rows, counts] = await Promise.all([
    listEndpointsOf(deps.db, organisationId, livemode, endpointId),
    countSettledSince(deps.db, organisationId, livemode, deps.clock.now().subtract(RECENT).toString()),
  ]);
  const count = (id: string, status: string) =>
    Number(counts.find((c) => c.endpoint_id === id && c.status === status)?.count ?? 0);
  return rows.map((r): Endpoint => {
    const succeeded = count(r.id, 'succeeded');
    const failed = count(r.id, 'failed');
    return {
      id: r.id,
      url: r.url,
      events: r.event_types as WebhookEventType[],
      venue: r.venue_id && r.venue && r.venue_name ? { id: r.venue_id, slug: r.venue, name: r.venue_name } : null,
      state: r.disabled_at ? 'disabled' : r.failing_since ? 'failing' : 'active',
      enabled: r.disabled_at === null,
      created_at: r.created_at,
      last_success_at: r.last_success_at,
      failing_since: r.failing_since,
      disabled_at: r.disabled_at,
      recent_deliveries: {
        succeeded,
        failed,
        success_rate: succeeded + failed === 0 ? null : succeeded / (succeeded + failed),
      },
    };
  });
}

/** One endpoint of the organisation, or 404 `Webhook endpoint not found`. */
export async function dashboardEndpoint(
  deps: WebhookDeps,
  organisationId: string,
  livemode: boolean,
  endpointId: string,
) {
  const [endpoint] = await listDashboardEndpoints(deps, organisationId, livemode, endpointId);
  if (!endpoint) throw notFound(DashboardErrorText.WebhookEndpointNotFound);
  return endpoint;
}

/** Adds an endpoint with the CLI's rules (URL safety, at most 10), answered in the dashboard's terms. */
export async function createDashboardEndpoint(
  deps: WebhookDeps,
  input: {
    organisationId: string;
    livemode: boolean;
    url: string;
    events: WebhookEventType[] | undefined;
    venueId: string | undefined;
    audit: AuditTrail;
  },
) {
  const org = await deps.db
    .selectFrom('organisations')
    .select(['id', 'slug'])
    .where('id', '=', input.organisationId)
    .executeTakeFirstOrThrow();
  if (input.venueId !== undefined) {
    const venue = await deps.db
      .selectFrom('venues')
      .select('id')
      .where('id', '=', input.venueId)
      .where('organisation_id', '=', org.id)
      .executeTakeFirst();
    if (!venue) throw notFound(DashboardErrorText.VenueNotFound);
  }
  try {
    const added = await addEndpointTo(deps.db, deps.vault, org, {
      url: input.url,
      venueId: input.venueId ?? null,
      eventTypes: input.events ?? [],
      livemode: input.livemode,
      allowPrivateNetworks: deps.webhooks.allowPrivateNetworks,
      now: deps.clock.now(),
      audit: input.audit,
    });
    return { ...(await dashboardEndpoint(deps, org.id, input.livemode, added.id)), secret: added.secret };
  } catch (error) {
    // The CLI's refusals, in the dashboard contract's statuses and texts.
    if (error instanceof EndpointLimitError) throw new DashboardError(409, DashboardErrorText.TooManyWebhookEndpoints);
    if (error instanceof UnsafeUrlRefusal) throw new SentenceError(422, error.message, 'unsafe_url');
    throw error;
  }
}

/**
 * Queues a `webhook.test` event for the endpoint under this request's own lease and makes its first attempt at once
 * through the delivery loop's code: the answer says how the endpoint replied, the log keeps the attempt, and a
 * failure is retried like any delivery.
 */
export async function testDashboardEndpoint(
  deps: WebhookDeps,
  input: {
    organisationId: string;
    livemode: boolean;
    endpointId: string;
    type?: string | undefined;
    audit: AuditTrail;
  },
): Promise<z.infer<typeof TestDelivery>> {
  await dashboardEndpoint(deps, input.organisationId, input.livemode, input.endpointId);
  const now = deps.clock.now();
  const sample =
    input.type && input.type !== 'webhook.test'
      ? await sampleBookingEvent(deps.db, input.organisationId, input.type as WebhookEventType, now, input.livemode)
      : undefined;
  const token = randomUUID();
  const attempt = attemptDeps(deps);
  let queued;
  try {
    queued = await queueTestEvent(deps.db, input.endpointId, {
      organisationId: input.organisationId,
      audit: input.audit,
      now,
      lease: { token, until: now.add({ seconds: leaseSecondsFor(attempt.attemptTimeoutMs) }) },
      ...(sample && { sample }),
    });
  } catch (error) {
    if (error instanceof DisabledEndpointError) throw new SentenceError(409, error.message, 'disabled');
    throw error;
  }
  const record = await deliverNow({ ...attempt, db: deps.db }, { id: queued.deliveryId, token });
  if (!record) throw new Error(`Test delivery ${queued.deliveryId} was claimed by another process`);
  return {
    event_id: queued.eventId,
    succeeded: record.ok,
    attempted_at: record.startedAt.round({ smallestUnit: 'second', roundingMode: 'trunc' }).toString(),
    status_code: record.statusCode,
    duration_ms: record.durationMs,
    error: record.error,
  };
}

/** One endpoint with its last 7 days, day by day (UTC), oldest first: the endpoint page's chart. */
export async function dashboardEndpointDetail(
  deps: WebhookDeps,
  organisationId: string,
  livemode: boolean,
  endpointId: string,
) {
  const endpoint = await dashboardEndpoint(deps, organisationId, livemode, endpointId);
  const today = deps.clock.now().toZonedDateTimeISO('UTC').toPlainDate();
  const first = today.subtract({ days: 6 });
  const since = first.toZonedDateTime('UTC').toInstant().toString();
  const counts = await countDailySince(deps.db, endpointId, since);
  const count = (day: string, status: string) =>
    Number(counts.find((c) => c.day === day && c.status === status)?.count ?? 0);
  const daily = Array.from({ length: 7 }, (_, i) => {
    const date = first.add({ days: i }).toString();
    return { date, succeeded: count(date, 'succeeded'), failed: count(date, 'failed') };
  });
  return { ...endpoint, daily };
}

/**
 * Changes an endpoint's URL (checked as when adding one), event types or venue; its secret stays. The audit row
 * names the URL it has after the change.
 */
export async function updateDashboardEndpoint(
  deps: WebhookDeps,
  input: {
    organisationId: string;
    livemode: boolean;
    endpointId: string;
    url?: string | undefined;
    events?: WebhookEventType[] | undefined;
    venueId?: string | null | undefined;
    audit: AuditTrail;
  },
) {
  const current = await dashboardEndpoint(deps, input.organisationId, input.livemode, input.endpointId);
  if (input.venueId) {
    const venue = await deps.db
      .selectFrom('venues')
      .select('id')
      .where('id', '=', input.venueId)
      .where('organisation_id', '=', input.organisationId)
      .executeTakeFirst();
    if (!venue) throw notFound(DashboardErrorText.VenueNotFound);
  }
  let url = current.url;
  if (input.url !== undefined) {
    try {
      url = (await checkedUrl(input.url, deps.webhooks.allowPrivateNetworks)).toString();
    } catch (error) {
      if (error instanceof UnsafeUrlRefusal) throw new SentenceError(422, error.message, 'unsafe_url');
      throw error;
    }
  }
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('webhook_endpoints')
      .set({
        url,
        ...(input.events !== undefined && { event_types: [...new Set(input.events)] }),
        ...(input.venueId !== undefined && { venue_id: input.venueId }),
      })
      .where('id', '=', input.endpointId)
      .where('organisation_id', '=', input.organisationId)
      .where('removed_at', 'is', null)
      .execute();
    await input.audit.record(trx, {
      organisationId: input.organisationId,
      action: 'webhook_endpoint.updated',
      target: { type: 'webhook_endpoint', id: input.endpointId, label: url },
    });
  });
  return dashboardEndpoint(deps, input.organisationId, input.livemode, input.endpointId);
}

/**
 * Disables an endpoint (its pending deliveries fail now, as when the delivery loop gives up on it: they can be
 * replayed once it is enabled again) or enables it (new events reach it).
 */
export async function setDashboardEndpointEnabled(
  deps: WebhookDeps,
  input: { organisationId: string; livemode: boolean; endpointId: string; enabled: boolean; audit: AuditTrail },
) {
  const current = await dashboardEndpoint(deps, input.organisationId, input.livemode, input.endpointId);
  if (current.enabled !== input.enabled)
    await deps.db.transaction().execute(async (trx) => {
      if (input.enabled)
        await trx
          .updateTable('webhook_endpoints')
          .set({ disabled_at: null, failing_since: null })
          .where('id', '=', input.endpointId)
          .where('removed_at', 'is', null)
          .execute();
      else await disableEndpoint(trx, input.endpointId, deps.clock.now().toString());
      await input.audit.record(trx, {
        organisationId: input.organisationId,
        action: input.enabled ? 'webhook_endpoint.enabled' : 'webhook_endpoint.disabled',
        target: { type: 'webhook_endpoint', id: input.endpointId, label: current.url },
      });
    });
  return dashboardEndpoint(deps, input.organisationId, input.livemode, input.endpointId);
}

/** Replays every failed delivery of the endpoint to it alone; the audit row counts as one replay of the endpoint's. */
export async function replayFailedDeliveries(
  deps: WebhookDeps,
  input: { organisationId: string; livemode: boolean; endpointId: string; audit: AuditTrail },
) {
  const endpoint = await dashboardEndpoint(deps, input.organisationId, input.livemode, input.endpointId);
  if (!endpoint.enabled)
    throw new SentenceError(
      409,
      'This endpoint is disabled: enable it first, then replay its failed deliveries.',
      'disabled',
    );
  return deps.db.transaction().execute(async (trx) => {
    const queued = await replayFailedOf(trx, input.endpointId, deps.clock.now());
    await input.audit.record(trx, {
      organisationId: input.organisationId,
      action: 'webhook_delivery.replayed',
      target: { type: 'webhook_endpoint', id: input.endpointId, label: endpoint.url },
    });
    return queued;
  });
}
