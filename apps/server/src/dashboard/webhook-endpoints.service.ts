import { DashboardErrorText, type TestDelivery, type WebhookEndpoint } from '@spa/contract/dashboard';
import type { WebhookEventType } from '@spa/contract';
import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { z } from 'zod';
import type { AuditTrail } from '../audit/audit-trail.js';
import { DashboardError, notFound, SentenceError } from '../errors/dashboard-errors.js';
import { attemptDeps, type WebhookDeps } from './webhook-deps.js';
import { deliverNow, leaseSecondsFor } from '../webhooks/attempt-delivery.js';
import { countSettledSince } from '../webhooks/delivery-log.repository.js';
import { addEndpointTo, EndpointLimitError, listEndpointsOf, UnsafeUrlRefusal } from '../webhooks/endpoints.service.js';
import { DisabledEndpointError, queueTestEvent } from '../webhooks/test-event.js';

/** The window of an endpoint's recent success rate. */
const RECENT = Temporal.Duration.from({ hours: 7 * 24 });

type Endpoint = z.infer<typeof WebhookEndpoint>;

/** The organisation's endpoints as the dashboard shows them, with their last 7 days of settled deliveries. */
export async function listDashboardEndpoints(deps: WebhookDeps, organisationId: string, endpointId?: string) {
  const [rows, counts] = await Promise.all([
    listEndpointsOf(deps.db, organisationId, endpointId),
    countSettledSince(deps.db, organisationId, deps.clock.now().subtract(RECENT).toString()),
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
export async function dashboardEndpoint(deps: WebhookDeps, organisationId: string, endpointId: string) {
  const [endpoint] = await listDashboardEndpoints(deps, organisationId, endpointId);
  if (!endpoint) throw notFound(DashboardErrorText.WebhookEndpointNotFound);
  return endpoint;
}

/** Adds an endpoint with the CLI's rules (URL safety, at most 10), answered in the dashboard's terms. */
export async function createDashboardEndpoint(
  deps: WebhookDeps,
  input: {
    organisationId: string;
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
      allowPrivateNetworks: deps.webhooks.allowPrivateNetworks,
      now: deps.clock.now(),
      audit: input.audit,
    });
    return { ...(await dashboardEndpoint(deps, org.id, added.id)), secret: added.secret };
  } catch (error) {
    // The CLI's refusals, in the dashboard contract's statuses and texts.
    if (error instanceof EndpointLimitError) throw new DashboardError(409, DashboardErrorText.TooManyWebhookEndpoints);
    if (error instanceof UnsafeUrlRefusal) throw new SentenceError(422, error.message);
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
  input: { organisationId: string; endpointId: string; audit: AuditTrail },
): Promise<z.infer<typeof TestDelivery>> {
  await dashboardEndpoint(deps, input.organisationId, input.endpointId);
  const now = deps.clock.now();
  const token = randomUUID();
  const attempt = attemptDeps(deps);
  let queued;
  try {
    queued = await queueTestEvent(deps.db, input.endpointId, {
      organisationId: input.organisationId,
      audit: input.audit,
      now,
      lease: { token, until: now.add({ seconds: leaseSecondsFor(attempt.attemptTimeoutMs) }) },
    });
  } catch (error) {
    if (error instanceof DisabledEndpointError) throw new SentenceError(409, error.message);
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
