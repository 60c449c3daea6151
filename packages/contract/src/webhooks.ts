import { z } from 'zod';
import { Booking } from './bookings.js';
import { doc, UtcInstant } from './common.js';

/**
 * Webhooks (preview): what the API POSTs to a partner's endpoint when a booking changes. Not a route of the
 * partner API, so they live here beside it and the SDK derives its event types and verifier from them.
 */
export const WEBHOOK_EVENT_TYPES = [
  'booking.created',
  'booking.awaiting_therapist',
  'booking.confirmed',
  'booking.cancelled',
  'booking.completed',
  'booking.no_show',
] as const;

export const WebhookEventType = doc(
  z.enum(WEBHOOK_EVENT_TYPES),
  'What happened to the booking (preview)',
  'booking.confirmed',
);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** The body of one event type: `{ type, timestamp, data: { booking } }`, the booking as the API returns it. */
function bookingEvent<T extends WebhookEventType>(type: T, description: string) {
  return doc(
    z.object({
      type: z.literal(type),
      timestamp: doc(UtcInstant, "When the change happened (the booking's updated_at)", '2026-12-01T09:00:00Z'),
      data: z.object({ booking: Booking }),
    }),
    `${description} (preview). Headers: webhook-id (the same on every retry), webhook-timestamp, webhook-signature.`,
  );
}

export const BookingCreatedEvent = bookingEvent('booking.created', 'A booking was created, status pending');
export const BookingAwaitingTherapistEvent = bookingEvent(
  'booking.awaiting_therapist',
  "No therapist accepted a pending booking within the venue's response time; it keeps its holds",
);
export const BookingConfirmedEvent = bookingEvent('booking.confirmed', 'A therapist accepted the booking');
export const BookingCancelledEvent = bookingEvent('booking.cancelled', 'The booking was cancelled; see cancellation');
export const BookingCompletedEvent = bookingEvent('booking.completed', 'The treatment took place');
export const BookingNoShowEvent = bookingEvent('booking.no_show', 'The guest did not come');

/** Any event, told apart by `type`. No order is promised: compare `data.booking.updated_at` to drop a stale one. */
export const WebhookEvent = z.discriminatedUnion('type', [
  BookingCreatedEvent,
  BookingAwaitingTherapistEvent,
  BookingConfirmedEvent,
  BookingCancelledEvent,
  BookingCompletedEvent,
  BookingNoShowEvent,
]);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** The three Standard Webhooks headers every delivery carries. */
export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;
