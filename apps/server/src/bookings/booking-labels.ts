import { BOOKING_COLUMNS } from '../db/columns.js';

/**
 * A booking with the names the dashboard shows beside it (venue, customer, treatment, variant, therapist): the
 * columns of a query joining bookings, venues, customers, treatments, variants and (left) therapists.
 */
export const LABEL_COLUMNS = [
  ...BOOKING_COLUMNS.map((c) => `bookings.${c}` as const),
  'bookings.therapist_id',
  'venues.slug as venue_slug',
  'venues.name as venue_name',
  'venues.timezone as venue_timezone',
  'venues.currency as venue_currency',
  'customers.first_name as customer_first_name',
  'customers.last_name as customer_last_name',
  'customers.email as customer_email',
  'customers.phone as customer_phone',
  'customers.language as customer_language',
  'customers.created_at as customer_created_at',
  'customers.livemode as customer_livemode',
  'treatments.name as treatment_name',
  'variants.name as variant_name',
  'variants.duration_minutes as variant_duration_minutes',
  'therapists.first_name as therapist_first_name',
  'therapists.last_name as therapist_last_name',
] as const;
