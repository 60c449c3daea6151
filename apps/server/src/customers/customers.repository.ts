import type { Db } from '../db/connect.js';
import { BOOKING_COLUMNS } from '../db/columns.js';

/** Customers of the organisation with at least one booking at the venue (any status). */
export async function listVenueCustomers(
  db: Db,
  venue: { id: string; organisation_id: string },
  filter: { email?: string | undefined },
  page: { offset: number; limit: number },
) {
  let query = db
    .selectFrom('customers')
    .where('customers.organisation_id', '=', venue.organisation_id)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('bookings')
          .select('bookings.id')
          .whereRef('bookings.customer_id', '=', 'customers.id')
          .where('bookings.venue_id', '=', venue.id),
      ),
    );
  if (filter.email)
    query = query.where((eb) => eb(eb.fn('lower', ['customers.email']), '=', filter.email!.toLowerCase()));
  const [rows, total] = await Promise.all([
    query
      .select(['id', 'first_name', 'last_name', 'email', 'phone', 'language', 'created_at'])
      .orderBy('last_name')
      .orderBy('first_name')
      .orderBy('id')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.count) };
}

/** True when the customer belongs to the venue's organisation and has booked there at least once. */
export async function isVenueCustomer(db: Db, venue: { id: string; organisation_id: string }, customerId: string) {
  const row = await db
    .selectFrom('bookings')
    .innerJoin('customers', 'customers.id', 'bookings.customer_id')
    .select('bookings.id')
    .where('bookings.customer_id', '=', customerId)
    .where('bookings.venue_id', '=', venue.id)
    .where('customers.organisation_id', '=', venue.organisation_id)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** One customer's bookings at one venue, newest start first. */
export async function listCustomerBookings(
  db: Db,
  venueId: string,
  customerId: string,
  page: { offset: number; limit: number },
) {
  const query = db.selectFrom('bookings').where('customer_id', '=', customerId).where('venue_id', '=', venueId);
  const [rows, total] = await Promise.all([
    query
      .select(BOOKING_COLUMNS)
      .orderBy('start_at', 'desc')
      .orderBy('booking_number', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.count) };
}
