import type { BookingDetail, BookingRow as BookingListItem } from '@spa/contract/dashboard';
import type { z } from 'zod';
import { toBooking } from '../bookings/booking.mapper.js';
import type { BookingRow } from '../db/columns.js';
import { isoFromDb } from '../lib/instant.js';

/** A booking row with the names of LABEL_COLUMNS (bookings/booking-labels.ts). */
export type LabelledBookingRow = BookingRow & {
  therapist_id: string | null;
  venue_slug: string;
  venue_name: string;
  venue_timezone: string | null;
  venue_currency: string;
  customer_first_name: string;
  customer_last_name: string;
  customer_email: string;
  customer_phone: string | null;
  customer_language: string;
  customer_created_at: string;
  treatment_name: string;
  variant_name: string;
  variant_duration_minutes: number;
  therapist_first_name: string | null;
  therapist_last_name: string | null;
};

type Detail = z.infer<typeof BookingDetail>;

/** The names beside a booking, shared by the list row and the detail. */
function labels(r: LabelledBookingRow) {
  return {
    venue: {
      id: r.venue_id,
      slug: r.venue_slug,
      name: r.venue_name,
      timezone: r.venue_timezone ?? 'UTC',
      currency: r.venue_currency,
    },
    treatment: { id: r.treatment_id, name: r.treatment_name },
    variant: { id: r.variant_id, name: r.variant_name, duration_minutes: r.variant_duration_minutes },
    therapist:
      r.therapist_id === null
        ? null
        : { id: r.therapist_id, first_name: r.therapist_first_name ?? '', last_name: r.therapist_last_name ?? '' },
  };
}

/** The one place a labelled row becomes a row of the dashboard's bookings list. */
export function toBookingListItem(r: LabelledBookingRow): z.infer<typeof BookingListItem> {
  const b = toBooking(r);
  return {
    id: b.id,
    booking_number: b.booking_number,
    status: b.status,
    start_at: b.start_at,
    end_at: b.end_at,
    guest_count: b.guest_count,
    therapists_accepted: b.therapists_accepted,
    total_price: b.total_price,
    external_id: b.external_id,
    created_at: b.created_at,
    notes: b.notes,
    external_reference: b.external_reference,
    ...labels(r),
    customer: {
      id: r.customer_id,
      first_name: r.customer_first_name,
      last_name: r.customer_last_name,
      email: r.customer_email,
      language: r.customer_language,
    },
  };
}

/** The one place a labelled row, its timeline, deliveries and eligible therapists become the detail. */
export function toBookingDetail(
  r: LabelledBookingRow,
  more: Pick<Detail, 'events' | 'deliveries' | 'eligible_therapists' | 'cancellation_quote'>,
): Detail {
  return {
    ...toBooking(r),
    ...labels(r),
    customer: {
      id: r.customer_id,
      first_name: r.customer_first_name,
      last_name: r.customer_last_name,
      email: r.customer_email,
      phone: r.customer_phone,
      language: r.customer_language,
      created_at: isoFromDb(r.customer_created_at),
    },
    ...more,
  };
}
