import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { page, PaginationQuery, single, UtcInstant, Uuid } from '../common.js';
import { failure } from '../errors.js';
import { WebhookEventType } from '../webhooks.js';
import { dashboardErrors, forbidden, WebhookEventNotFoundErrorBody } from './errors.js';
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
});

export const EventPath = z.object({ event_id: Uuid });

export const webhookDeliveriesContract = c.router({
  list: {
    method: 'GET',
    path: '/webhook-deliveries',
    query: DeliveriesQuery,
    responses: statuses({ 200: page(WebhookDelivery), ...dashboardErrors, 403: forbidden }),
    summary: 'Deliveries of the organisation, newest first, filtered by endpoint, status and event type (admin)',
  },
  replay: {
    method: 'POST',
    path: '/webhook-deliveries/:event_id/replay',
    pathParams: EventPath,
    body: c.noBody(),
    responses: statuses({
      200: single(z.object({ event_id: Uuid, deliveries: z.number().int().nonnegative().describe('Queued again') })),
      ...dashboardErrors,
      403: forbidden,
      404: failure('`Webhook event not found` in your organisation', WebhookEventNotFoundErrorBody),
    }),
    summary: 'Send an event again to every endpoint it was for (admin)',
  },
});
