import { z } from 'zod';
import { Booking } from './bookings.js';
import { doc, named, openEnum, UtcInstant } from './common.js';
import { Example } from './examples.js';

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
  'booking.rescheduled',
] as const;

export const WebhookEventType = named(
  'WebhookEventType',
  openEnum(
    [...WEBHOOK_EVENT_TYPES],
    'What happened to the booking (preview)',
    'answer 2xx to an event type you do not know and ignore it',
    'booking.confirmed',
  ),
);
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What every event carries in `data`: the booking as the API returns it. */
export const WebhookEventData = named(
  'WebhookEventData',
  doc(
    z.object({ booking: Booking }),
    'The booking as it is after the change, in the shape GET /v1/bookings/{booking_id} answers',
  ),
);

/**
 * The body of one event type: `{ type, timestamp, data: { booking } }`, named `BookingCreatedEvent` and so on in
 * the OpenAPI document (its `webhooks`). The server builds every event body with this type.
 */
function bookingEvent<const T extends WebhookEventType>(name: string, type: T, description: string) {
  return named(
    name,
    doc(
      z.object({
        type: doc(z.literal(type), 'The event type: what happened to the booking', type),
        timestamp: doc(UtcInstant, "When the change happened (the booking's updated_at)", Example.createdAt),
        data: WebhookEventData,
      }),
      `${description} (preview)`,
    ),
  );
}

export const BookingCreatedEvent = bookingEvent(
  'BookingCreatedEvent',
  'booking.created',
  'A booking was created, status pending',
);
export const BookingAwaitingTherapistEvent = bookingEvent(
  'BookingAwaitingTherapistEvent',
  'booking.awaiting_therapist',
  "No therapist accepted a pending booking within the venue's response time; it keeps its holds",
);
export const BookingConfirmedEvent = bookingEvent(
  'BookingConfirmedEvent',
  'booking.confirmed',
  'A therapist accepted the booking',
);
export const BookingCancelledEvent = bookingEvent(
  'BookingCancelledEvent',
  'booking.cancelled',
  'The booking was cancelled; see cancellation',
);
export const BookingCompletedEvent = bookingEvent(
  'BookingCompletedEvent',
  'booking.completed',
  'The treatment took place',
);
export const BookingNoShowEvent = bookingEvent('BookingNoShowEvent', 'booking.no_show', 'The guest did not come');

/** `data` of booking.rescheduled: the booking at its new time, and the time it had before. */
export const BookingRescheduledEventData = named(
  'BookingRescheduledEventData',
  doc(
    z.object({
      booking: Booking,
      previous_start_at: doc(UtcInstant, 'Where the booking started before the move', Example.startAt),
      previous_end_at: doc(UtcInstant, 'Where it ended before the move', Example.endAt),
    }),
    'The booking as it is after the move, and its previous start and end',
  ),
);

export const BookingRescheduledEvent = named(
  'BookingRescheduledEvent',
  doc(
    z.object({
      type: doc(
        z.literal('booking.rescheduled'),
        'The event type: what happened to the booking',
        'booking.rescheduled',
      ),
      timestamp: doc(UtcInstant, "When the change happened (the booking's updated_at)", Example.createdAt),
      data: BookingRescheduledEventData,
    }),
    'The booking moved to another start (same id and booking_number); status pending again when its therapists could not all follow (preview)',
  ),
);

/** Any event, told apart by `type`. No order is promised: compare `data.booking.updated_at` to drop a stale one. */
export const WebhookEvent = z.discriminatedUnion('type', [
  BookingCreatedEvent,
  BookingAwaitingTherapistEvent,
  BookingConfirmedEvent,
  BookingCancelledEvent,
  BookingCompletedEvent,
  BookingNoShowEvent,
  BookingRescheduledEvent,
]);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** The three Standard Webhooks headers every delivery carries. */
export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;
