import { type ExpressionBuilder, sql } from 'kysely';
import type { OrganisationScope } from '../auth/organisation-scope.js';
import { BOOKING_COLUMNS } from '../db/columns.js';
import type { Db } from '../db/connect.js';
import type { BookingStatus, Database } from '../db/schema.js';

export interface BookingSearch {
  venueId?: string | undefined;
  status?: BookingStatus | undefined;
  /** Bookings starting at or after this instant (ISO). */
  from?: string | undefined;
  /** Bookings starting before this instant (ISO). */
  to?: string | undefined;
  /** Part of the customer's name or email, or of the booking's external id; case-insensitive. */
  q?: string | undefined;
}

type SearchRow = ExpressionBuilder<Database, 'bookings' | 'venues' | 'customers'>;

/** `%`, `_` and `\` stand for themselves in a search: escaped for LIKE. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The scope's bookings matching the search, newest start first, a page at a time, with the names a list shows.
 * The venue condition comes first so PostgreSQL reads bookings through (venue_id, start_at) for the scope's few
 * venues; the text search then filters those rows (an organisation's bookings, narrowed by the date range).
 */
export async function searchBookings(
  db: Db,
  scope: OrganisationScope,
  search: BookingSearch,
  page: { offset: number; limit: number },
) {
  let query = db
    .selectFrom('bookings')
    .innerJoin('venues', 'venues.id', 'bookings.venue_id')
    .innerJoin('customers', 'customers.id', 'bookings.customer_id')
    .where('venues.organisation_id', '=', scope.organisationId);
  if (scope.venueIds !== null) {
    if (scope.venueIds.length === 0) return { rows: [], total: 0 };
    query = query.where('bookings.venue_id', 'in', scope.venueIds);
  }
  if (search.venueId !== undefined) query = query.where('bookings.venue_id', '=', search.venueId);
  if (search.status !== undefined) query = query.where('bookings.status', '=', search.status);
  if (search.from !== undefined) query = query.where('bookings.start_at', '>=', search.from);
  if (search.to !== undefined) query = query.where('bookings.start_at', '<', search.to);
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
  const [rows, total] = await Promise.all([
    query
      .leftJoin('therapists', 'therapists.id', 'bookings.therapist_id')
      .select([
        ...BOOKING_COLUMNS.map((c) => `bookings.${c}` as const),
        'bookings.therapist_id',
        'venues.slug as venue_slug',
        'venues.name as venue_name',
        'customers.first_name as customer_first_name',
        'customers.last_name as customer_last_name',
        'customers.email as customer_email',
        'therapists.first_name as therapist_first_name',
        'therapists.last_name as therapist_last_name',
      ])
      .orderBy('bookings.start_at', 'desc')
      .orderBy('bookings.booking_number', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.count) };
}

export type BookingSearchRow = Awaited<ReturnType<typeof searchBookings>>['rows'][number];
