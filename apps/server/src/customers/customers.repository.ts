import type { Db } from '../db/connect.js';
import { BOOKING_COLUMNS } from '../db/columns.js';
import { compiledQuery } from '../db/compiled-query.js';

/** Customers of the organisation in the key's mode with at least one booking at the venue (any status). */
export async function listVenueCustomers(
  db: Db,
  venue: { id: string; organisation_id: string },
  livemode: boolean,
  filter: { email?: string | undefined },
  page: { offset: number; limit: number },
) {
  let query = db
    .selectFrom('customers')
    .where('customers.organisation_id', '=', venue.organisation_id)
    .where('customers.livemode', '=', livemode)
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
      .select(['id', 'first_name', 'last_name', 'email', 'phone', 'language', 'created_at', 'livemode'])
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

interface VenueCustomer {
  customerId: string;
  venueId: string;
  organisationId: string;
  livemode: boolean;
}

const venueCustomerBooking = compiledQuery((db, p: VenueCustomer) =>
  db
    .selectFrom('bookings')
    .innerJoin('customers', 'customers.id', 'bookings.customer_id')
    .select('bookings.id')
    .where('bookings.customer_id', '=', p.customerId)
    .where('bookings.venue_id', '=', p.venueId)
    .where('customers.organisation_id', '=', p.organisationId)
    .where('customers.livemode', '=', p.livemode)
    .limit(1),
);

/**
 * True when the customer belongs to the venue's organisation and the key's mode and has booked there at least once
 * (a customer's bookings share its mode, so its history needs no mode condition of its own).
 */
export async function isVenueCustomer(
  db: Db,
  venue: { id: string; organisation_id: string },
  livemode: boolean,
  customerId: string,
) {
  const rows = await venueCustomerBooking(db, {
    customerId,
    venueId: venue.id,
    organisationId: venue.organisation_id,
    livemode,
  });
  return rows.length > 0;
}

interface HistoryPage {
  customerId: string;
  venueId: string;
  offset: number;
  limit: number;
}

const history = (db: Db, p: HistoryPage) =>
  db.selectFrom('bookings').where('customer_id', '=', p.customerId).where('venue_id', '=', p.venueId);
const historyPage = compiledQuery((db, p: HistoryPage) =>
  history(db, p)
    .select(BOOKING_COLUMNS)
    .orderBy('start_at', 'desc')
    .orderBy('booking_number', 'desc')
    .offset(p.offset)
    .limit(p.limit),
);
const historyCount = compiledQuery((db, p: HistoryPage) =>
  history(db, p).select((eb) => eb.fn.countAll<number>().as('count')),
);

/** One customer's bookings at one venue, newest start first. */
export async function listCustomerBookings(
  db: Db,
  venueId: string,
  customerId: string,
  page: { offset: number; limit: number },
) {
  const p = { customerId, venueId, ...page };
  const [rows, [total]] = await Promise.all([historyPage(db, p), historyCount(db, p)]);
  return { rows, total: Number(total!.count) };
}
