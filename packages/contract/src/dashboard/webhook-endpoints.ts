import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { page, PaginationQuery, single, UtcInstant, Uuid } from '../common.js';
import { failure } from '../errors.js';
import { WebhookEventType } from '../webhooks.js';
import {
  dashboardBodyErrors,
  dashboardErrors,
  DashboardVenueNotFoundErrorBody,
  forbidden,
  forbiddenOrUnconfirmed,
  SentenceErrorBody,
  TooManyWebhookEndpointsErrorBody,
  WebhookEndpointNotFoundErrorBody,
} from './errors.js';
import { DashboardVenueSummary } from './people.js';
import { statuses } from '../statuses.js';

const c = initContract();

export const WebhookEndpointPath = z.object({ id: Uuid });

/**
 * `active`: delivering; `failing`: no success since failing_since (5 days of it disable the endpoint);
 * `disabled`: no longer sent to.
 */
export const WebhookEndpointState = z.enum(['active', 'failing', 'disabled']);

export const WebhookEndpoint = z.object({
  id: Uuid,
  url: z.string(),
  events: z.array(WebhookEventType).describe('The event types sent; empty: every type'),
  venue: DashboardVenueSummary.nullable().describe('null: every venue of the organisation'),
  state: WebhookEndpointState,
  enabled: z.boolean().describe('false once disabled'),
  created_at: UtcInstant,
  last_success_at: UtcInstant.nullable(),
  failing_since: UtcInstant.nullable(),
  disabled_at: UtcInstant.nullable(),
  recent_deliveries: z
    .object({
      succeeded: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
      success_rate: z.number().min(0).max(1).nullable().describe('succeeded / (succeeded + failed); null when none'),
    })
    .describe('Deliveries settled in the last 7 days'),
});

/** The endpoint with its signing secret (`whsec_…`): only the create answer carries it. */
export const CreatedWebhookEndpoint = WebhookEndpoint.extend({ secret: z.string().describe('whsec_…, shown once') });

export const CreateWebhookEndpointBody = z.object({
  url: z
    .string({ required_error: 'is required' })
    .min(1, 'must not be empty')
    .max(2000, 'must be at most 2000 characters'),
  events: z
    .array(WebhookEventType)
    .min(1, 'must list at least one event type, or be left out for every type')
    .optional()
    .describe('Left out: every event type'),
  venue_id: Uuid.optional().describe('Left out: every venue'),
});

/** A change of an endpoint: each field left out stays as it is. */
export const UpdateWebhookEndpointBody = z.object({
  url: CreateWebhookEndpointBody.shape.url.optional(),
  events: z.array(WebhookEventType).optional().describe('Empty: every event type'),
  venue_id: Uuid.nullable().optional().describe('null: every venue'),
});

/** One day (UTC) of an endpoint's settled deliveries. */
export const DeliveryDay = z.object({
  date: z.string().describe('YYYY-MM-DD, UTC'),
  succeeded: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
});

/** An endpoint with its last 7 days, day by day (oldest first, today last). */
export const WebhookEndpointDetail = WebhookEndpoint.extend({ daily: z.array(DeliveryDay).length(7) });

/** What a test event is: `webhook.test` (an empty `data`), or a sample of a booking event with a made-up booking. */
export const TestEventBody = z
  .object({ type: z.union([WebhookEventType, z.literal('webhook.test')]).optional() })
  .optional();

export const RotatedSecret = z.object({
  id: Uuid,
  secret: z.string().describe('The new whsec_… secret, shown once'),
  previous_secret_expires_at: UtcInstant.describe('The old secret keeps signing beside the new one until then (24 h)'),
});

/**
 * The outcome of a test delivery's first attempt. The event goes through the delivery queue like every event
 * (signed the same, listed in the deliveries with its attempts, retried on failure); its first attempt is made
 * at once so the answer can say how the endpoint replied.
 */
export const TestDelivery = z.object({
  event_id: Uuid.describe('The webhook-id header of the test event; the deliveries list shows it'),
  succeeded: z.boolean(),
  attempted_at: UtcInstant,
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int().nonnegative(),
  error: z.string().nullable().describe('Why it failed without a 2xx: timeout, refused, unsafe address…'),
});

const notFound = failure('`Webhook endpoint not found` in your organisation', WebhookEndpointNotFoundErrorBody);

export const webhookEndpointsContract = c.router({
  list: {
    method: 'GET',
    path: '/webhook-endpoints',
    query: PaginationQuery,
    responses: statuses({ 200: page(WebhookEndpoint), ...dashboardErrors, 403: forbidden }),
    summary: 'The webhook endpoints of the organisation (admin)',
  },
  create: {
    method: 'POST',
    path: '/webhook-endpoints',
    body: CreateWebhookEndpointBody,
    responses: statuses({
      201: single(CreatedWebhookEndpoint),
      ...dashboardErrors,
      ...dashboardBodyErrors,
      403: forbidden,
      404: failure('`Venue not found` in your organisation', DashboardVenueNotFoundErrorBody),
      409: failure('The organisation already has 10 endpoints', TooManyWebhookEndpointsErrorBody),
      422: failure(
        'The URL is refused: not https, carries credentials, does not resolve, or resolves to a private address',
        SentenceErrorBody,
      ),
    }),
    summary: 'Add an endpoint (admin); its secret is shown once',
  },
  remove: {
    method: 'DELETE',
    path: '/webhook-endpoints/:id',
    pathParams: WebhookEndpointPath,
    body: c.noBody(),
    responses: statuses({ 204: c.noBody(), ...dashboardErrors, 403: forbidden, 404: notFound }),
    summary: 'Remove an endpoint and its pending deliveries (admin)',
  },
  rotateSecret: {
    method: 'POST',
    path: '/webhook-endpoints/:id/rotate-secret',
    pathParams: WebhookEndpointPath,
    body: c.noBody(),
    responses: statuses({ 200: single(RotatedSecret), ...dashboardErrors, 403: forbiddenOrUnconfirmed, 404: notFound }),
    summary: 'Rotate the signing secret (admin, password confirmed within 5 minutes)',
  },
  get: {
    method: 'GET',
    path: '/webhook-endpoints/:id',
    pathParams: WebhookEndpointPath,
    responses: statuses({ 200: single(WebhookEndpointDetail), ...dashboardErrors, 403: forbidden, 404: notFound }),
    summary: 'One endpoint with its last 7 days of deliveries, day by day (admin)',
  },
  update: {
    method: 'PATCH',
    path: '/webhook-endpoints/:id',
    pathParams: WebhookEndpointPath,
    body: UpdateWebhookEndpointBody,
    responses: statuses({
      200: single(WebhookEndpoint),
      ...dashboardErrors,
      ...dashboardBodyErrors,
      403: forbidden,
      404: failure(
        '`Webhook endpoint not found`, or `Venue not found`',
        WebhookEndpointNotFoundErrorBody,
        DashboardVenueNotFoundErrorBody,
      ),
      422: failure('The URL is refused (as when adding an endpoint)', SentenceErrorBody),
    }),
    summary: "Change an endpoint's URL, event types or venue (admin); its secret stays",
  },
  disable: {
    method: 'POST',
    path: '/webhook-endpoints/:id/disable',
    pathParams: WebhookEndpointPath,
    body: c.noBody(),
    responses: statuses({ 200: single(WebhookEndpoint), ...dashboardErrors, 403: forbidden, 404: notFound }),
    summary: 'Stop sending to an endpoint (admin): its pending deliveries fail now and can be replayed later',
  },
  enable: {
    method: 'POST',
    path: '/webhook-endpoints/:id/enable',
    pathParams: WebhookEndpointPath,
    body: c.noBody(),
    responses: statuses({ 200: single(WebhookEndpoint), ...dashboardErrors, 403: forbidden, 404: notFound }),
    summary: 'Send to a disabled endpoint again (admin): new events reach it; failed ones only by replay',
  },
  replayFailed: {
    method: 'POST',
    path: '/webhook-endpoints/:id/replay-failed',
    pathParams: WebhookEndpointPath,
    body: c.noBody(),
    responses: statuses({
      200: single(z.object({ deliveries: z.number().int().nonnegative().describe('Failed deliveries queued again') })),
      ...dashboardErrors,
      403: forbidden,
      404: notFound,
      409: failure('The endpoint is disabled: enable it first', SentenceErrorBody),
    }),
    summary: 'Replay every failed delivery of the endpoint, to it alone (admin)',
  },
  test: {
    method: 'POST',
    path: '/webhook-endpoints/:id/test',
    pathParams: WebhookEndpointPath,
    body: TestEventBody,
    responses: statuses({
      200: single(TestDelivery),
      ...dashboardErrors,
      ...dashboardBodyErrors,
      403: forbidden,
      404: notFound,
      409: failure('The endpoint is disabled: it receives nothing, a test included', SentenceErrorBody),
    }),
    summary:
      'Send a signed test event now (through the delivery queue) and answer how the endpoint replied (admin): ' +
      '`webhook.test`, or a sample of a booking event type with a made-up booking',
  },
});
