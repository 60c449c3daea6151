import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { page, PaginationQuery, single, UtcInstant, Uuid } from '../common.js';
import { failure } from '../errors.js';
import { WebhookEventType } from '../webhooks.js';
import { dashboardBodyErrors, dashboardErrors, forbidden, WebhookEventNotFoundErrorBody } from './errors.js';
import { statuses } from '../statuses.js';

const c = initContract();

export const DeliveryStatus = z.enum(['pending', 'succeeded', 'failed']);

/** The type of a test delivery (POST /webhook-endpoints/{id}/test): no booking, sent to that one endpoint. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/** A booking event type, or `webhook.test`. */
export const DeliveredEventType = z.union([WebhookEventType, z.literal(WEBHOOK_TEST_EVENT_TYPE)]);

/** One try to deliver: when, what the endpoint answered and how long it took, or why it failed. */
export const DeliveryAttempt = z.object({
  attempt: z.number().int().min(1),
  attempted_at: UtcInstant,
  status_code: z.number().int().nullable().describe('null when no HTTP answer came'),
  duration_ms: z.number().int().nonnegative(),
  error: z.string().nullable(),
  manual: z.boolean().describe('The first attempt of a replay someone asked for; false for scheduled attempts'),
});

/** One event's delivery to one endpoint, with its attempts (oldest first). */
export const WebhookDelivery = z.object({
  event_id: Uuid.describe('The webhook-id header; the same on every retry'),
  event_type: DeliveredEventType,
  booking_id: Uuid.nullable().describe('null for a webhook.test event'),
  endpoint: z.object({ id: Uuid, url: z.string() }),
  status: DeliveryStatus,
  created_at: UtcInstant.describe('When the event happened'),
  next_attempt_at: UtcInstant.nullable().describe('null unless pending'),
  completed_at: UtcInstant.nullable(),
  attempts: z.array(DeliveryAttempt),
});

export const DeliveriesQuery = PaginationQuery.extend({
  endpoint_id: Uuid.optional(),
  status: DeliveryStatus.optional(),
  event_type: DeliveredEventType.optional(),
  q: Uuid.optional().describe('An event id (the webhook-id header) or a booking id'),
});

export const EventPath = z.object({ event_id: Uuid });
export const DeliveryPath = z.object({ event_id: Uuid, endpoint_id: Uuid });

/** An attempt with what the endpoint answered: the first 4 kB of its body. */
export const DeliveryAttemptDetail = DeliveryAttempt.extend({
  response_body: z.string().nullable().describe('The first 4096 bytes of the answer; null without one'),
});

/** One delivery in full: the body that was sent (the same on every attempt) and each attempt's answer. */
export const WebhookDeliveryDetail = WebhookDelivery.extend({
  request_body: z.string().describe('The JSON body sent, as signed'),
  attempts: z.array(DeliveryAttemptDetail),
});

export const ReplayBody = z
  .object({ endpoint_id: Uuid.optional().describe('Replay to this endpoint only; left out: every endpoint') })
  .optional();

export const webhookDeliveriesContract = c.router({
  list: {
    method: 'GET',
    path: '/webhook-deliveries',
    query: DeliveriesQuery,
    responses: statuses({ 200: page(WebhookDelivery), ...dashboardErrors, 403: forbidden }),
    summary: 'Deliveries of the organisation, newest first, filtered by endpoint, status and event type (admin)',
  },
  get: {
    method: 'GET',
    path: '/webhook-deliveries/:event_id/endpoints/:endpoint_id',
    pathParams: DeliveryPath,
    responses: statuses({
      200: single(WebhookDeliveryDetail),
      ...dashboardErrors,
      403: forbidden,
      404: failure('`Webhook event not found` in your organisation', WebhookEventNotFoundErrorBody),
    }),
    summary: "One delivery with the body sent and each attempt's answer (admin)",
  },
  replay: {
    method: 'POST',
    path: '/webhook-deliveries/:event_id/replay',
    pathParams: EventPath,
    body: ReplayBody,
    responses: statuses({
      200: single(z.object({ event_id: Uuid, deliveries: z.number().int().nonnegative().describe('Queued again') })),
      ...dashboardErrors,
      ...dashboardBodyErrors,
      403: forbidden,
      404: failure('`Webhook event not found` in your organisation', WebhookEventNotFoundErrorBody),
    }),
    summary:
      'Send an event again (admin): to `endpoint_id` only when given, else to every endpoint it is for; attempts ' +
      'are numbered on from the last and the first is marked manual',
  },
});
