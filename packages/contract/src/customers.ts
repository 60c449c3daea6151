import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { doc, named, page, PaginationQuery, UtcInstant, Uuid, VenueRef } from './common.js';
import {
  badRequest,
  commonErrors,
  CustomerNotFoundErrorBody,
  failure,
  venueForbidden,
  venueNotFound,
  VenueNotFoundErrorBody,
} from './errors.js';
import { BookingListResponse } from './bookings.js';
import { Example } from './examples.js';
import { VenuePath } from './venues.js';
import { statuses } from './statuses.js';

const c = initContract();

export const Customer = named(
  'Customer',
  doc(
    z.object({
      id: doc(Uuid, 'Customer UUID', Example.customerId),
      first_name: doc(z.string(), 'First name', 'Claire'),
      last_name: doc(z.string(), 'Last name', 'Martin'),
      email: doc(z.string(), 'Email, unique per organisation (case-insensitive)', 'claire.martin@example.com'),
      phone: doc(z.string().nullable(), 'Phone number, E.164', '+33612345600'),
      language: doc(z.string(), 'ISO 639-1', 'fr'),
      created_at: doc(UtcInstant, 'When the customer was first recorded', '2026-01-01T00:00:00Z'),
      livemode: doc(z.boolean(), 'true for a live customer; false for one a test key (sk_test_) made', true),
    }),
    'A customer of the organisation: one per email address',
  ),
);

export const CustomerListResponse = page('CustomerListResponse', Customer, 'Customers');

export const customersContract = c.router({
  list: {
    method: 'GET',
    path: '/venues/:venue_id/customers',
    pathParams: VenuePath,
    query: PaginationQuery.extend({
      email: doc(z.string().max(254).optional(), 'Exact email, case-insensitive', 'claire.martin@example.com'),
    }),
    responses: statuses({
      200: CustomerListResponse,
      ...commonErrors,
      ...badRequest('page_size must be an integer from 1 to 100', 'page_size'),
      403: venueForbidden,
      404: venueNotFound,
    }),
    summary: "List the venue's customers",
    description:
      'Customers of the organisation with at least one booking at this venue, ordered by last name, first name.',
    metadata: { operationId: 'listCustomers', scope: 'customers:read', tag: 'customers' },
  },
  bookings: {
    method: 'GET',
    path: '/venues/:venue_id/customers/:customer_id/bookings',
    pathParams: z.object({ venue_id: VenueRef, customer_id: doc(Uuid, 'Customer UUID', Example.customerId) }),
    query: PaginationQuery,
    responses: statuses({
      200: BookingListResponse,
      ...commonErrors,
      ...badRequest('customer_id must be a UUID', 'customer_id'),
      403: venueForbidden,
      404: failure(
        '`Venue not found`, or `Customer not found in this venue`',
        VenueNotFoundErrorBody,
        CustomerNotFoundErrorBody,
      ),
    }),
    summary: "List a customer's bookings at a venue",
    description: 'Bookings of one customer at this venue only, newest start first.',
    metadata: { operationId: 'listCustomerBookings', scope: 'bookings:read', tag: 'customers' },
  },
});
