import type { Db } from '../db/connect.js';
import type { BookingStatus } from '../db/schema.js';

/** Venues with this slug (one per organisation at most), narrowed to one organisation when given. */
export function findVenuesBySlug(db: Db, slug: string, orgSlug: string | undefined) {
  let query = db
    .selectFrom('venues')
    .innerJoin('organisations', 'organisations.id', 'venues.organisation_id')
    .select(['venues.id', 'venues.slug', 'venues.timezone', 'organisations.slug as organisation'])
    .where('venues.slug', '=', slug);
  if (orgSlug !== undefined) query = query.where('organisations.slug', '=', orgSlug);
  return query.orderBy('organisations.slug').execute();
}

/** A venue's bookings starting in [from, to), in start order, with what an operator reads to act on one. */
export function listVenueBookings(
  db: Db,
  filter: { venueId: string; status: BookingStatus | undefined; from: string; to: string | undefined },
) {
  let query = db
    .selectFrom('bookings')
    .innerJoin('treatments', 'treatments.id', 'bookings.treatment_id')
    .innerJoin('variants', 'variants.id', 'bookings.variant_id')
    .innerJoin('customers', 'customers.id', 'bookings.customer_id')
    .leftJoin('therapists', 'therapists.id', 'bookings.therapist_id')
    .select([
      'bookings.id',
      'bookings.booking_number',
      'bookings.status',
      'bookings.start_at',
      'bookings.guest_count',
      'treatments.name as treatment',
      'variants.name as variant',
      'variants.duration_minutes',
      'customers.first_name as guest_first_name',
      'customers.last_name as guest_last_name',
      'bookings.therapist_id',
      'therapists.first_name as therapist_first_name',
      'therapists.last_name as therapist_last_name',
    ])
    .where('bookings.venue_id', '=', filter.venueId)
    .where('bookings.start_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('bookings.start_at', '<', filter.to);
  if (filter.status !== undefined) query = query.where('bookings.status', '=', filter.status);
  return query.orderBy('bookings.start_at').orderBy('bookings.booking_number').execute();
}

/** The therapists each booking was offered to (who may accept it), by name. */
export function listOffers(db: Db, bookingIds: string[]) {
  if (bookingIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('booking_offers')
    .innerJoin('therapists', 'therapists.id', 'booking_offers.therapist_id')
    .select(['booking_offers.booking_id', 'therapists.id', 'therapists.first_name', 'therapists.last_name'])
    .where('booking_offers.booking_id', 'in', bookingIds)
    .orderBy('therapists.last_name')
    .orderBy('therapists.first_name')
    .orderBy('therapists.id')
    .execute();
}

/** The weekly shifts of these therapists at one venue. */
export function listShifts(db: Db, venueId: string, therapistIds: string[]) {
  if (therapistIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('therapist_shifts')
    .select(['therapist_id', 'days_of_week', 'start_time', 'end_time'])
    .where('venue_id', '=', venueId)
    .where('therapist_id', 'in', therapistIds)
    .orderBy('start_time')
    .execute();
}
