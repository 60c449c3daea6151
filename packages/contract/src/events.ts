import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { PENDING_EXAMPLE } from './bookings.js';
import { commaList, COMPONENT, type ComponentMark, doc, named, queryInt, single, Uuid } from './common.js';
import { badRequest, commonErrors, ErrorBody, ErrorText, failure, REQUEST_ID, scopeForbidden } from './errors.js';
import { Example } from './examples.js';
import { statuses } from './statuses.js';
import { WEBHOOK_EVENT_TYPES, WebhookEvent } from './webhooks.js';

const c = initContract();

/** An event id of the examples: the `webhook-id` header of its deliveries. */
const EVENT_ID = '0b7e8f4a-3c2d-4e1f-9a6b-5c4d3e2f1a0b';

const EVENT_FIELDS = {
  id: doc(Uuid, 'Event UUID: the webhook-id header of its deliveries, and the `after` cursor of the feed', EVENT_ID),
  livemode: doc(z.boolean(), 'true for a live event, false for one of test mode', true),
};

type WebhookBodies = typeof WebhookEvent.options;
const withFeedFields = <T extends WebhookBodies[number]>(body: T) => z.object(EVENT_FIELDS).merge(body);
type WithFeedFields<T extends readonly unknown[]> = {
  [K in keyof T]: T[K] extends WebhookBodies[number] ? ReturnType<typeof withFeedFields<T[K]>> : never;
};
type FeedMembers = WithFeedFields<WebhookBodies>;

/** `BookingCreatedEvent` -> `BookingCreatedFeedEvent`: each member named after the webhook body it extends. */
function feedMember<T extends WebhookBodies[number]>(body: T) {
  const mark = (body as { metaOpenApi?: Record<string, ComponentMark | undefined> }).metaOpenApi?.[COMPONENT];
  if (!mark) throw new Error('Every webhook event body is named');
  return named(
    mark.name.replace(/Event$/, 'FeedEvent'),
    doc(withFeedFields(body), `${mark.description ?? ''}: as the feed lists it`),
  );
}

/**
 * One event of the feed: the body every webhook delivery of it carries (`type`, `timestamp`, `data` exactly as
 * POSTed), with its id and mode beside; one member per webhook event type, made from the webhook bodies
 * themselves, so the feed and the webhooks cannot drift apart.
 */
export const Event = named(
  'Event',
  doc(
    z.discriminatedUnion('type', WebhookEvent.options.map(feedMember) as unknown as FeedMembers),
    'Something that happened to a booking, as its webhook body says it, with its id',
    {
      id: EVENT_ID,
      livemode: true,
      type: 'booking.created',
      timestamp: Example.createdAt,
      data: { booking: PENDING_EXAMPLE },
    },
  ),
);

export const EventResponse = single('EventResponse', Event, 'The event');

export const EventListResponse = named(
  'EventListResponse',
  doc(
    z.object({
      data: doc(z.array(Event), 'Events after `after`, oldest first'),
      has_more: doc(z.boolean(), 'Whether more events follow now: ask again with after = next_after', false),
      next_after: doc(
        Uuid.nullable(),
        'What to send as `after` next: the last event of data, or the `after` you sent when data is empty (null if none)',
        EVENT_ID,
      ),
    }),
    "A page of the organisation's events, oldest first",
  ),
);

export const EventCursorExpiredErrorBody = named(
  'EventCursorExpiredError',
  doc(
    ErrorBody.extend({
      error: doc(z.literal(ErrorText.EventCursorExpired), 'The error, a fixed text', ErrorText.EventCursorExpired),
    }),
    '410: the `after` event is no longer kept (events are kept for the retention period): reconcile with GET /v1/bookings?updated_since, then page from a recent event',
    { error: ErrorText.EventCursorExpired, request_id: REQUEST_ID },
  ),
);

export const EventNotFoundErrorBody = named(
  'EventNotFoundError',
  doc(
    ErrorBody.extend({
      error: doc(z.literal(ErrorText.EventNotFound), 'The error, a fixed text', ErrorText.EventNotFound),
    }),
    '404: no event your key can see has this id (never was, no longer kept, or of a venue your key cannot use)',
    { error: ErrorText.EventNotFound, request_id: REQUEST_ID },
  ),
);

export const EventListQuery = z.object({
  after: doc(Uuid.optional(), 'Only events after this one (exclusive): the next_after of the previous page', EVENT_ID),
  type: commaList(WEBHOOK_EVENT_TYPES, 'Only events of these types', 'booking.confirmed,booking.cancelled'),
  booking_id: doc(Uuid.optional(), 'Only the events of this booking', Example.bookingId),
  limit: queryInt('limit', 1, 100, 50),
});

export const eventsContract = c.router({
  list: {
    method: 'GET',
    path: '/events',
    query: EventListQuery,
    responses: statuses({
      200: EventListResponse,
      ...commonErrors,
      ...badRequest('limit must be an integer from 1 to 100', 'limit'),
      403: scopeForbidden,
      410: failure('`EVENT_CURSOR_EXPIRED`: the `after` event is no longer kept', EventCursorExpiredErrorBody),
    }),
    summary: 'List events',
    description:
      'The events of your organisation (of your venue, for a venue-restricted key), oldest first, whether or not you have webhook endpoints: ' +
      'what a receiver that was down missed. Page with after = next_after until has_more is false; the order never changes, and an event that ' +
      'commits later always comes after the ones already listed, so a reader that pages with after sees every event exactly once. ' +
      'Events are kept for the retention period (30 days by default); an `after` older than that is 410 EVENT_CURSOR_EXPIRED.',
    metadata: { operationId: 'listEvents', scope: 'bookings:read', tag: 'events' },
  },
  get: {
    method: 'GET',
    path: '/events/:event_id',
    pathParams: z.object({ event_id: doc(Uuid, 'Event UUID (the webhook-id header of a delivery)', EVENT_ID) }),
    responses: statuses({
      200: EventResponse,
      ...commonErrors,
      ...badRequest('event_id must be a UUID', 'event_id'),
      403: scopeForbidden,
      404: failure('`Event not found`', EventNotFoundErrorBody),
    }),
    summary: 'Read one event',
    description: 'One event by its id, as the feed lists it: the webhook-id of a delivery you received, to check it.',
    metadata: { operationId: 'getEvent', scope: 'bookings:read', tag: 'events' },
  },
});
