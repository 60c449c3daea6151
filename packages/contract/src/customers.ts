import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { badRequest, commonErrors, errorOf, ErrorText } from './errors.js';
import { doc, page, PaginationQuery, UtcInstant, Uuid, VenueRef } from './common.js';
import { Booking } from './bookings.js';
import { VenuePath } from './venues.js';

const c = initContract();

export const Customer = z.object({
  id: Uuid,
  first_name: z.string(),
  last_name: z.string(),
  email: doc(z.string(), 'Email, unique per organisation (case-insensitive)', 'claire.martin@example.com'),
  phone: z.string().nullable(),
  language: doc(z.string(), 'ISO 639-1', 'fr'),
  created_at: UtcInstant,
});

export const customersContract = c.router({
  list: {
    method: 'GET',
    path: '/venues/:venue_id/customers',
    pathParams: VenuePath,
    query: PaginationQuery.extend({
      email: doc(z.string().max(254).optional(), 'Exact email, case-insensitive', 'claire.martin@example.com'),
    }),
    responses: {
      200: page(Customer),
      ...commonErrors,
      ...badRequest('page_size must be an integer from 1 to 100', 'page_size'),
      404: errorOf('`Venue not found`', ErrorText.VenueNotFound),
    },
    summary: "List the venue's customers",
    description:
      'Customers of the organisation with at least one booking at this venue, ordered by last name, first name.',
    metadata: { scope: 'customers:read' },
  },
  bookings: {
    method: 'GET',
    path: '/venues/:venue_id/customers/:customer_id/bookings',
    pathParams: z.object({ venue_id: VenueRef, customer_id: Uuid }),
    query: PaginationQuery,
    responses: {
      200: page(Booking),
      ...badRequest('customer_id must be a UUID', 'customer_id'),
      ...commonErrors,
      404: errorOf('`Venue not found`, or `Customer not found in this venue`', ErrorText.CustomerNotFound),
    },
    summary: "List a customer's bookings at a venue",
    description: 'Bookings of one customer at this venue only, newest start first.',
    metadata: { scope: 'bookings:read' },
  },
});
