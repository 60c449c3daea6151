import { generateSchema } from '@anatine/zod-openapi';
import {
  BookingAwaitingTherapistEvent,
  BookingCancelledEvent,
  BookingCompletedEvent,
  BookingConfirmedEvent,
  BookingCreatedEvent,
  BookingNoShowEvent,
  BookingRescheduledEvent,
  WEBHOOK_HEADERS,
  type WebhookEventType,
} from '@spa/contract';
import type { z } from 'zod';
import { ATTEMPT_TIMEOUT_MS } from '../webhooks/send-attempt.js';
import { DEFAULT_RETRY_SCHEDULE } from '../config/config.js';
import { type Components, hoistComponents, type Schema } from './components.js';
import { exampleOf } from './examples.js';

const EVENTS: Record<WebhookEventType, z.ZodTypeAny> = {
  'booking.created': BookingCreatedEvent,
  'booking.awaiting_therapist': BookingAwaitingTherapistEvent,
  'booking.confirmed': BookingConfirmedEvent,
  'booking.cancelled': BookingCancelledEvent,
  'booking.completed': BookingCompletedEvent,
  'booking.no_show': BookingNoShowEvent,
  'booking.rescheduled': BookingRescheduledEvent,
};

/** 5 s, 5 min, 30 min, 2 h...: the retry delays in words, from the server's own schedule. */
function delay(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

export const RETRY_PROMISE =
  `Delivery is at least once. An attempt succeeds on a 2xx answer within ${ATTEMPT_TIMEOUT_MS / 1000} s; anything else ` +
  `(3xx included: redirects are not followed) is retried after ${DEFAULT_RETRY_SCHEDULE.map(delay).join(', ')}, ` +
  'then the delivery is failed (the operator can replay it). The same event keeps its webhook-id on every retry: ' +
  'deduplicate on it. No order is promised: compare data.booking.updated_at with what you stored.';

const SIGNATURE_HEADERS = [
  {
    name: WEBHOOK_HEADERS.id,
    description: 'The event id (a UUID): the same on every retry of the event; deduplicate on it',
    schema: { type: 'string', format: 'uuid' },
    example: '0b5b7c8e-4f0e-4c1e-9a55-3c1f8d2e6a10',
  },
  {
    name: WEBHOOK_HEADERS.timestamp,
    description: 'When this attempt was signed, in Unix seconds; refuse one more than 5 minutes from your clock',
    schema: { type: 'integer', format: 'int64', minimum: 0 },
    example: 1906876800,
  },
  {
    name: WEBHOOK_HEADERS.signature,
    description:
      'Standard Webhooks signature: `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}` under the base64 bytes after `whsec_` of your secret; several, space-separated, while a rotated secret overlaps. Accept the delivery when any one matches.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
].map((header) => ({ ...header, in: 'header', required: true }));

/**
 * The `x-webhooks` of the document (OpenAPI 3.0's extension for what 3.1 calls `webhooks`, rendered and checked
 * by Redocly): one POST per event type, its body a named schema made from the contract's event schema (the one
 * the server builds every event with), the three signature headers, and the retry promise.
 */
export function webhooksOf(components: Components): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(EVENTS).map(([type, event]) => {
      const schema = hoistComponents(generateSchema(event, true) as Schema, components);
      const name = String(schema.$ref).split('/').at(-1)!;
      return [
        type,
        {
          post: {
            operationId: `webhook${name}`,
            summary: `${type} (preview)`,
            description: `${String(components[name]?.description)}.\n\n${RETRY_PROMISE}`,
            tags: ['webhooks'],
            parameters: SIGNATURE_HEADERS,
            requestBody: {
              required: true,
              description: 'The event, signed as webhook-signature says: verify it on the raw bytes before parsing',
              content: { 'application/json': { schema, example: exampleOf(schema, components) } },
            },
            responses: {
              '200': { description: 'Any 2xx within 10 s: delivered. Do the work after answering.' },
            },
          },
        },
      ];
    }),
  );
}
