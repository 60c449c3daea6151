import { contract } from '@spa/contract';
import { initServer } from '@ts-rest/express';
import type { RouteDeps } from '../app-deps.js';
import { principalOf } from '../auth/principal.js';
import { toBooking } from '../bookings/booking.mapper.js';
import { CustomerNotFoundError } from '../errors/domain-errors.js';
import { paginated, pageWindow } from '../http/pagination.js';
import { isoFromDb } from '../lib/instant.js';
import { resolveVenue } from '../venues/venue-access.js';
import { isVenueCustomer, listCustomerBookings, listVenueCustomers } from './customers.repository.js';

export function customersRouter({ db }: RouteDeps) {
  return initServer().router(contract.customers, {
    list: async ({ params, query, res }) => {
      const principal = principalOf(res);
      const venue = await resolveVenue(db, principal, params.venue_id);
      const { rows, total } = await listVenueCustomers(
        db,
        venue,
        principal.livemode,
        { email: query.email },
        pageWindow(query),
      );
      const data = rows.map((row) => ({ ...row, created_at: isoFromDb(row.created_at) }));
      return { status: 200, body: paginated(data, query, total) };
    },
    bookings: async ({ params, query, res }) => {
      const principal = principalOf(res);
      const venue = await resolveVenue(db, principal, params.venue_id);
      const customerId = params.customer_id.toLowerCase();
      if (!(await isVenueCustomer(db, venue, principal.livemode, customerId))) throw new CustomerNotFoundError();
      const { rows, total } = await listCustomerBookings(db, venue.id, customerId, pageWindow(query));
      return { status: 200, body: paginated(rows.map(toBooking), query, total) };
    },
  });
}
