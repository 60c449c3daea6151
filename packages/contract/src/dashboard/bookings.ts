import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { Booking, BookingStatus } from '../bookings.js';
import { page, PaginationQuery, single, UtcInstant, Uuid, VenueRef } from '../common.js';
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
  total_price: true,
  external_id: true,
  created_at: true,
}).extend({ ...labels, customer: Customer.pick({ id: true, first_name: true, last_name: true, email: true }) });

/** An entry of a booking's timeline: each webhook event it produced, oldest first. */
export const BookingEvent = z.object({ id: Uuid, type: WebhookEventType, created_at: UtcInstant });

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
    .describe('Therapists the booking was offered to, who may accept it; empty unless pending or awaiting_therapist'),
});

/** A calendar date that exists (2026-02-30 is refused), as the availability query checks its dates. */
const LocalDay = z.string().date('must be a valid calendar date (YYYY-MM-DD)');

export const BookingsQuery = PaginationQuery.extend({
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
    summary: 'Bookings of the organisation (of the listed venues, for desk), by start, earliest first',
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
});
