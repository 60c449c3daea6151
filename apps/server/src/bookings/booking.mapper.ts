import type { Booking } from '@spa/contract';
import type { z } from 'zod';
import type { BookingRow } from '../db/columns.js';
import { isoFromDb } from '../lib/instant.js';
import { toMoney } from '../lib/money.js';

/** The one place a booking row becomes the contract's Booking. */
export function toBooking(row: BookingRow): z.infer<typeof Booking> {
  return {
    id: row.id,
    booking_number: row.booking_number,
    status: row.status,
    venue_id: row.venue_id,
    treatment_id: row.treatment_id,
    variant_id: row.variant_id,
    customer_id: row.customer_id,
    start_at: isoFromDb(row.start_at),
    end_at: isoFromDb(row.end_at),
    guest_count: row.guest_count,
    therapists_accepted: row.accepted_count,
    notes: row.notes,
    external_reference: row.external_reference,
    external_id: row.external_id,
    client_type: row.client_type,
    total_price: toMoney(row.total_price_minor, row.currency),
    payment_method: 'partner_billed',
    payment_status: 'paid',
    created_at: isoFromDb(row.created_at),
    updated_at: isoFromDb(row.updated_at),
    cancellation:
      row.status === 'cancelled' && row.cancelled_at
        ? {
            fee: toMoney(row.cancellation_fee_minor ?? 0, row.currency),
            policy: row.cancellation_policy_text ?? '',
            cancelled_at: isoFromDb(row.cancelled_at),
            cancelled_by: row.cancelled_by === 'customer' ? 'customer' : 'partner',
            reason: row.cancellation_reason ?? '',
          }
        : null,
  };
}
