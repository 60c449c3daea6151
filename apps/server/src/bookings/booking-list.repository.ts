import type { OrganisationScope } from '../auth/organisation-scope.js';
import type { Db } from '../db/connect.js';
import { BOOKING_COLUMNS } from '../db/columns.js';
import type { BookingStatus } from '../db/schema.js';

/** The filters of GET /v1/bookings, each optional; instants as ISO text. */
export interface BookingListFilters {
  venueId?: string | undefined;
  statuses?: readonly BookingStatus[] | undefined;
  startFrom?: string | undefined;
  startTo?: string | undefined;
  updatedSince?: string | undefined;
  customerId?: string | undefined;
  externalId?: string | undefined;
}

/**
 * The scope's bookings matching every filter, by start then id, a page at a time, with the count of all of them.
 * The scope is a venue list (`venue_id in (the organisation's venues)`), so each filter reads bookings through an
 * index led by venue_id: (venue_id, start_at) for a start range and the order, (venue_id, updated_at) for
 * updated_since, (venue_id, external_id) for external_id; customer_id through (customer_id, venue_id).
 */
export async function listBookings(
  db: Db,
  scope: OrganisationScope,
  filters: BookingListFilters,
  page: { offset: number; limit: number },
) {
  if (scope.venueIds?.length === 0) return { rows: [], total: 0 };
  let query = db
    .selectFrom('bookings')
    .where('livemode', '=', scope.livemode)
    .where('venue_id', 'in', (eb) =>
      eb.selectFrom('venues').select('venues.id').where('venues.organisation_id', '=', scope.organisationId),
    );
  if (scope.venueIds !== null) query = query.where('venue_id', 'in', [...scope.venueIds]);
  if (filters.venueId !== undefined) query = query.where('venue_id', '=', filters.venueId);
  if (filters.statuses !== undefined) query = query.where('status', 'in', [...filters.statuses]);
  if (filters.startFrom !== undefined) query = query.where('start_at', '>=', filters.startFrom);
  if (filters.startTo !== undefined) query = query.where('start_at', '<', filters.startTo);
  if (filters.updatedSince !== undefined) query = query.where('updated_at', '>=', filters.updatedSince);
  if (filters.customerId !== undefined) query = query.where('customer_id', '=', filters.customerId);
  if (filters.externalId !== undefined) query = query.where('external_id', '=', filters.externalId);
  const [rows, total] = await Promise.all([
    query.select(BOOKING_COLUMNS).orderBy('start_at').orderBy('id').offset(page.offset).limit(page.limit).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.count) };
}
