import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { DayAvailability } from '../availability.js';
import { Booking, BookingStatus, CancelBookingBody, RescheduleBookingBody } from '../bookings.js';
import { calendarDate, Money, page, PaginationQuery, single, UtcInstant, Uuid, VenueRef } from '../common.js';
import { Customer } from '../customers.js';
import { failure } from '../errors.js';
import { WebhookEventType } from '../webhooks.js';
import {
  dashboardBodyErrors,
  DashboardBookingNotFoundErrorBody,
  dashboardErrors,
  DashboardVenueNotFoundErrorBody,
  forbidden,
  SentenceErrorBody,
} from './errors.js';
import { DashboardVenue } from './people.js';
import { WebhookDelivery } from './webhook-deliveries.js';
import { statuses } from '../statuses.js';

const c = initContract();

export const TherapistSummary = z.object({ id: Uuid, first_name: z.string(), last_name: z.string() });

/** What a list row and the detail say beside the partner Booking: names instead of bare ids. */
const labels = {
  venue: DashboardVenue,
  treatment: z.object({ id: Uuid, name: z.string() }),
  variant: z.object({ id: Uuid, name: z.string(), duration_minutes: z.number().int().positive() }),
  therapist: TherapistSummary.nullable().describe('The therapist who accepted; null until one has'),
};

/** One row of the bookings list. */
export const BookingRow = Booking.pick({
  id: true,
  booking_number: true,
  status: true,
  start_at: true,
  end_at: true,
  guest_count: true,
  therapists_accepted: true,
  total_price: true,
  external_id: true,
  created_at: true,
  notes: true,
  external_reference: true,
}).extend({
  ...labels,
  customer: Customer.pick({ id: true, first_name: true, last_name: true, email: true, language: true }),
});

/** An entry of a booking's timeline: each webhook event it produced, oldest first. */
export const BookingEvent = z.object({ id: Uuid, type: WebhookEventType, created_at: UtcInstant });

/** What cancelling now would cost under one side's tiers. */
export const CancellationQuote = z.object({
  fee: Money,
  fee_percent: z.number().min(0).max(100),
  policy: z.string().describe('The tier that would apply, in one English sentence'),
});

/** One booking in full: the partner Booking, its names, its timeline and its deliveries. */
export const BookingDetail = Booking.extend({
  ...labels,
  customer: Customer,
  events: z.array(BookingEvent),
  deliveries: z
    .array(WebhookDelivery)
    .describe('Deliveries of its events to the organisation endpoints (empty for desk: webhooks belong to admins)'),
  eligible_therapists: z
    .array(TherapistSummary)
    .describe(
      'Therapists the booking was offered to who have not accepted it yet and may; empty unless pending or awaiting_therapist',
    ),
  cancellation_quote: z
    .object({ partner: CancellationQuote, customer: CancellationQuote })
    .nullable()
    .describe('The fee a cancellation now would cost, per side; null when the booking can no longer be cancelled'),
});

const LocalDay = calendarDate();

/**
 * `upcoming` (the default): bookings still to start, the soonest first, then those that started, the latest first.
 * `start`, `-start`: by start, earliest or latest first. `-created`: the newest first.
 */
export const BookingSort = z.enum(['upcoming', 'start', '-start', '-created']);

export const BookingsQuery = PaginationQuery.extend({
  sort: BookingSort.optional(),
  venue: VenueRef.optional().describe('Venue UUID or slug'),
  status: BookingStatus.optional(),
  from: LocalDay.optional().describe('First day, in the venue local time (inclusive)'),
  to: LocalDay.optional().describe('Last day, in the venue local time (inclusive)'),
  q: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .optional()
    .describe('Part of the customer name or email, or of the external id (case-insensitive)'),
});

export const DashboardBookingPath = z.object({ id: Uuid });

/** The bookings list's filters and order, without pages: the export has every matching booking. */
export const BookingsExportQuery = BookingsQuery.omit({ page: true, page_size: true });

/** A booking on the venue desk: its row, and the therapists it was offered to while it waits. */
export const DeskBooking = BookingRow.extend({
  eligible_therapists: z.array(TherapistSummary).describe('Empty unless pending or awaiting_therapist'),
});

/** Most bookings one desk list carries; `more` says how many others match (the bookings page lists them all). */
export const DESK_LIST_LIMIT = 500;

const DeskList = z.object({
  bookings: z.array(DeskBooking),
  more: z.number().int().nonnegative().describe('Matching bookings beyond the first 500, soonest first'),
});

/** A venue's day on the desk's agenda. */
export const DeskDay = z.object({
  venue_id: Uuid,
  date: z.string().describe('YYYY-MM-DD, venue local'),
  ...DeskList.shape,
});

/**
 * Everything the venue desk shows, in one answer: what waits for a therapist, what is confirmed and started but
 * not closed, and each venue's agenda for its today and tomorrow.
 */
export const Desk = z.object({
  waiting: DeskList,
  to_close: DeskList,
  agenda: z.array(DeskDay),
});

/** Bookings of one venue and span, counted by status. */
export const BookingCounts = z.object({
  total: z.number().int().nonnegative(),
  by_status: z.array(z.object({ status: BookingStatus, count: z.number().int().positive() })),
});

/** The overview in one answer: each venue's today and next 7 days, and (admin) the endpoints' health. */
export const Overview = z.object({
  venues: z.array(z.object({ venue_id: Uuid, today: BookingCounts, next_7_days: BookingCounts })),
  endpoints: z
    .object({
      total: z.number().int().nonnegative(),
      not_active: z.array(
        z.object({
          id: Uuid,
          url: z.string(),
          state: z.enum(['failing', 'disabled']),
          success_rate: z.number().min(0).max(1).nullable(),
        }),
      ),
    })
    .nullable()
    .describe('null for desk: webhooks belong to admins'),
});

/** Where the desk's live updates stream (server-sent events; not a ts-rest route: EventSource reads it). */
export const DESK_EVENTS_PATH = '/dashboard/api/desk/events';

export const AcceptBookingBody = z.object({ therapist_id: Uuid });

const notFound = failure(
  '`Booking not found`: no booking of your organisation (of your venues, for desk) has this id',
  DashboardBookingNotFoundErrorBody,
);
const changeErrors = {
  ...dashboardErrors,
  403: forbidden,
  404: notFound,
  409: failure('The booking is in a status that cannot take this change; the sentence says which', SentenceErrorBody),
} as const;

export const dashboardBookingsContract = c.router({
  list: {
    method: 'GET',
    path: '/bookings',
    query: BookingsQuery,
    responses: statuses({
      200: page(BookingRow),
      ...dashboardErrors,
      404: failure('`Venue not found`: no venue of yours has this UUID or slug', DashboardVenueNotFoundErrorBody),
    }),
    summary: 'Bookings of the organisation (of the listed venues, for desk); upcoming first unless `sort` says',
  },
  export: {
    method: 'GET',
    path: '/exports/bookings',
    query: BookingsExportQuery,
    responses: statuses({
      200: c.otherResponse({ contentType: 'text/csv; charset=utf-8', body: z.string() }),
      ...dashboardErrors,
      404: failure('`Venue not found`: no venue of yours has this UUID or slug', DashboardVenueNotFoundErrorBody),
    }),
    summary: 'Every booking the list filters match, in its order, as CSV (UTF-8, a header row)',
  },
  desk: {
    method: 'GET',
    path: '/desk',
    responses: statuses({ 200: single(Desk), ...dashboardErrors }),
    summary: "The venue desk in one answer: waiting, to close, and each venue's today and tomorrow",
  },
  overview: {
    method: 'GET',
    path: '/overview',
    responses: statuses({ 200: single(Overview), ...dashboardErrors }),
    summary: "Each venue's bookings today and in the next 7 days by status, and (admin) endpoints not delivering",
  },
  cancel: {
    method: 'POST',
    path: '/bookings/:id/cancel',
    pathParams: DashboardBookingPath,
    body: CancelBookingBody,
    responses: statuses({
      200: single(BookingDetail),
      ...changeErrors,
      ...dashboardBodyErrors,
    }),
    summary: "Cancel a booking (admin) under the venue's tiers for `cancelled_by`; the partner is told by webhook",
  },
  get: {
    method: 'GET',
    path: '/bookings/:id',
    pathParams: DashboardBookingPath,
    responses: statuses({ 200: single(BookingDetail), ...dashboardErrors, 404: notFound }),
    summary: 'One booking with its timeline, deliveries and the therapists who may accept it',
  },
  accept: {
    method: 'POST',
    path: '/bookings/:id/accept',
    pathParams: DashboardBookingPath,
    body: AcceptBookingBody,
    responses: statuses({
      200: single(BookingDetail),
      ...changeErrors,
      ...dashboardBodyErrors,
      422: failure('The therapist is not one the booking was offered to; the sentence says why', SentenceErrorBody),
    }),
    summary: "Record a therapist's acceptance: the booking is confirmed",
  },
  complete: {
    method: 'POST',
    path: '/bookings/:id/complete',
    pathParams: DashboardBookingPath,
    body: c.noBody(),
    responses: statuses({ 200: single(BookingDetail), ...changeErrors }),
    summary: 'Record that the treatment took place',
  },
  noShow: {
    method: 'POST',
    path: '/bookings/:id/no-show',
    pathParams: DashboardBookingPath,
    body: c.noBody(),
    responses: statuses({ 200: single(BookingDetail), ...changeErrors }),
    summary: 'Record that the guest did not come',
  },
  slots: {
    method: 'GET',
    path: '/bookings/:id/slots',
    pathParams: DashboardBookingPath,
    query: z.object({ date: calendarDate().describe('Venue-local day, YYYY-MM-DD') }),
    responses: statuses({ 200: single(DayAvailability), ...dashboardErrors, 403: forbidden, 404: notFound }),
    summary:
      "The slots of the booking's venue, variant and guest count on one day (admin), as the partner availability lists them",
  },
  reschedule: {
    method: 'POST',
    path: '/bookings/:id/reschedule',
    pathParams: DashboardBookingPath,
    body: RescheduleBookingBody,
    responses: statuses({
      200: single(BookingDetail),
      ...changeErrors,
      ...dashboardBodyErrors,
      422: failure(
        'A partner cancellation now would cost a fee, so it cannot be moved; the sentence says so',
        SentenceErrorBody,
      ),
    }),
    summary:
      'Move a booking to another slot (admin), as the partner reschedule does: 409 when the slot is taken, 422 when a fee applies',
  },
});
