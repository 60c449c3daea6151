import { sql } from 'kysely';
import type { OrganisationScope } from '../auth/organisation-scope.js';
import type { Db } from '../db/connect.js';
import { LABEL_COLUMNS } from './booking-labels.js';

/** One booking of the scope with the names its page shows, or undefined (absent, or outside the scope). */
export async function findScopedBooking(db: Db, scope: OrganisationScope, bookingId: string) {
  if (scope.venueIds?.length === 0) return undefined;
  let query = db
    .selectFrom('bookings')
    .innerJoin('venues', 'venues.id', 'bookings.venue_id')
    .innerJoin('customers', 'customers.id', 'bookings.customer_id')
    .innerJoin('treatments', 'treatments.id', 'bookings.treatment_id')
    .innerJoin('variants', 'variants.id', 'bookings.variant_id')
    .leftJoin('therapists', 'therapists.id', 'bookings.therapist_id')
    .select(LABEL_COLUMNS)
    .where('bookings.id', '=', bookingId)
    .where('venues.organisation_id', '=', scope.organisationId);
  if (scope.venueIds !== null) query = query.where('bookings.venue_id', 'in', scope.venueIds);
  return query.executeTakeFirst();
}

/** The booking's webhook events in the order they happened: its timeline. */
export function listBookingEvents(db: Db, bookingId: string) {
  return db
    .selectFrom('webhook_events')
    .select(['id', 'type', 'created_at'])
    .where('booking_id', '=', bookingId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * The therapists who may accept the booking now: those it was offered to (acceptance takes no one else) who hold
 * no other reservation in its way, at its own venue over [start, end) or at another venue within the inter-venue
 * buffer, as acceptBooking checks. Empty unless the booking is pending or awaiting_therapist.
 */
export async function listEligibleTherapists(db: Db, bookingId: string) {
  const { rows } = await sql<{ id: string; first_name: string; last_name: string }>`
    select t.id, t.first_name, t.last_name
    from bookings b
    join venues v on v.id = b.venue_id
    join booking_offers o on o.booking_id = b.id
    join therapists t on t.id = o.therapist_id
    where b.id = ${bookingId} and b.status in ('pending', 'awaiting_therapist') and o.accepted_at is null
      and not exists (
        select 1 from therapist_reservations h
        where h.therapist_id = t.id and h.booking_id <> b.id
          and h.during && case when h.venue_id = b.venue_id then tstzrange(b.start_at, b.end_at)
            else tstzrange(b.start_at - make_interval(mins => v.inter_venue_buffer_minutes),
                           b.end_at + make_interval(mins => v.inter_venue_buffer_minutes)) end)
    order by t.last_name, t.first_name, t.id
  `.execute(db);
  return rows;
}
