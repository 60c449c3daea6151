import type { Selectable } from 'kysely';
import type { BookingTable } from './schema.js';

/** Named column lists (never selectAll): what a booking read returns, for toBooking and the customer history. */
export const BOOKING_COLUMNS = [
  'id',
  'booking_number',
  'status',
  'venue_id',
  'treatment_id',
  'variant_id',
  'customer_id',
  'start_at',
  'end_at',
  'guest_count',
  'accepted_count',
  'notes',
  'external_reference',
  'external_id',
  'client_type',
  'total_price_minor',
  'currency',
  'payment_method',
  'payment_status',
  'created_at',
  'updated_at',
  'cancelled_at',
  'cancelled_by',
  'cancellation_reason',
  'cancellation_fee_minor',
  'cancellation_policy_text',
] as const;

export type BookingRow = Pick<Selectable<BookingTable>, (typeof BOOKING_COLUMNS)[number]>;
