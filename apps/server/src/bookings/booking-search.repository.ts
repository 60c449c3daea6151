import { type ExpressionBuilder, sql } from 'kysely';
import type { OrganisationScope } from '../auth/organisation-scope.js';
import type { Db } from '../db/connect.js';
import type { BookingStatus, Database } from '../db/schema.js';
import { LABEL_COLUMNS } from './booking-labels.js';

export interface BookingSearch {
  venueId?: string | undefined;
  status?: BookingStatus | undefined;
  /** Bookings starting on or after this day (YYYY-MM-DD), in the venue's time zone. */
  from?: string | undefined;
  /** Bookings starting on or before this day (YYYY-MM-DD), in the venue's time zone. */
  to?: string | undefined;
  /** Part of the customer's name or email, or of the booking's external id; case-insensitive. */
  q?: string | undefined;
  /** Several statuses at once (the desk's waiting list). */
  statuses?: readonly BookingStatus[] | undefined;
  /** Bookings that start at or before this instant (the desk's started bookings). */
  startedBy?: string | undefined;
}

/**
 * `upcoming`: bookings still to start (from `now`), the soonest first, then those that started, the latest first.
 * `start`, `-start`: by start. `-created`: the newest first.
 */
export type BookingOrder = { sort: 'upcoming'; now: string } | { sort: 'start' | '-start' | '-created' };

type SearchRow = ExpressionBuilder<Database, 'bookings' | 'venues' | 'customers'>;

const venueZone = sql`coalesce(venues.timezone, 'UTC')`;

/** `%`, `_` and `\` stand for themselves in a search: escaped for LIKE. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The scope's bookings matching the search, in `order` (earliest start first unless told), a page at a time, with the names a list shows.
 * The venue condition comes first so PostgreSQL reads bookings through (venue_id, start_at) for the scope's few
 * venues; the text search then filters those rows (an organisation's bookings, narrowed by the date range).
 */
export async function searchBookings(
  db: Db,
  scope: OrganisationScope,
  search: BookingSearch,
  page: { offset: number; limit: number },
  order: BookingOrder = { sort: 'start' },
) {
  let query = db
    .selectFrom('bookings')
    .innerJoin('venues', 'venues.id', 'bookings.venue_id')
    .innerJoin('customers', 'customers.id', 'bookings.customer_id')
    .where('venues.organisation_id', '=', scope.organisationId)
    .where('bookings.livemode', '=', scope.livemode);
  if (scope.venueIds !== null) {
    if (scope.venueIds.length === 0) return { rows: [], total: 0 };
    query = query.where('bookings.venue_id', 'in', scope.venueIds);
  }
  if (search.venueId !== undefined) query = query.where('bookings.venue_id', '=', search.venueId);
  if (search.status !== undefined) query = query.where('bookings.status', '=', search.status);
  if (search.statuses !== undefined) query = query.where('bookings.status', 'in', [...search.statuses]);
  if (search.startedBy !== undefined) query = query.where('bookings.start_at', '<=', search.startedBy);
  // A day starts at local midnight of each booking's own venue; a venue without a zone counts in UTC.
  if (search.from !== undefined)
    query = query.where(
      'bookings.start_at',
      '>=',
      sql<string>`${search.from}::date::timestamp at time zone ${venueZone}`,
    );
  if (search.to !== undefined)
    query = query.where(
      'bookings.start_at',
      '<',
      sql<string>`(${search.to}::date + 1)::timestamp at time zone ${venueZone}`,
    );
  const q = search.q?.trim();
  if (q) {
    const pattern = likePattern(q);
    query = query.where((eb: SearchRow) =>
      eb.or([
        eb(sql`customers.first_name || ' ' || customers.last_name`, 'ilike', pattern),
        eb('customers.email', 'ilike', pattern),
        eb('bookings.external_id', 'ilike', pattern),
      ]),
    );
  }
  let listed = query
    .innerJoin('treatments', 'treatments.id', 'bookings.treatment_id')
    .innerJoin('variants', 'variants.id', 'bookings.variant_id')
    .leftJoin('therapists', 'therapists.id', 'bookings.therapist_id')
    .select([...LABEL_COLUMNS]);
  if (order.sort === 'upcoming') {
    const started = sql<boolean>`bookings.start_at < ${order.now}::timestamptz`;
    listed = listed
      .orderBy(started)
      .orderBy(sql`case when ${started} then null else bookings.start_at end`)
      .orderBy('bookings.start_at', 'desc');
  } else if (order.sort === '-created') listed = listed.orderBy('bookings.created_at', 'desc');
  else listed = listed.orderBy('bookings.start_at', order.sort === '-start' ? 'desc' : 'asc');
  const [rows, total] = await Promise.all([
    listed.orderBy('bookings.booking_number').offset(page.offset).limit(page.limit).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.count) };
}

export type BookingSearchRow = Awaited<ReturnType<typeof searchBookings>>['rows'][number];
