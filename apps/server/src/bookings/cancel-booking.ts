import type { CancelBookingBody } from '@spa/contract';
import type { Temporal } from 'temporal-polyfill';
import type { z } from 'zod';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/connect.js';
import type { BookingRow } from '../db/columns.js';
import { BookingAlreadyCancelledError } from '../errors/domain-errors.js';
import { LIVE_STATUSES } from '../lib/booking-status.js';
import { instantFromDb } from '../lib/instant.js';
import { recordBookingEvent } from '../webhooks/record-event.js';
import { markCancelled, releaseReservations } from './bookings.repository.js';
import { cancellationFee } from './cancellation-policy.js';
import { resolveBooking } from './resolve-booking.js';

export interface CancelBookingOptions {
  db: Db;
  principal: Principal;
  bookingRef: string;
  body: z.infer<typeof CancelBookingBody>;
  now: Temporal.Instant;
  /** Records the cancellation in the audit log, in its transaction (a dashboard person's cancel). */
  audit?: AuditTrail | undefined;
}

/**
 * docs/api.md, "POST /v1/bookings/{booking_id}/cancel": applies the venue policy for `cancelled_by` and releases
 * the room and therapists at once. The booking is found, locked and read with its venue's policy in one
 * statement, inside the transaction that cancels it.
 */
export async function cancelBooking({
  db,
  principal,
  bookingRef,
  body,
  now,
  audit,
}: CancelBookingOptions): Promise<BookingRow> {
  return db.transaction().execute(async (trx) => {
    const booking = await resolveBooking(trx, principal, bookingRef, 'cancel', { lock: true });
    if (!LIVE_STATUSES.includes(booking.status)) throw new BookingAlreadyCancelledError(booking.status);
    const fee = cancellationFee({
      policy: booking.cancellation_policy,
      cancelledBy: body.cancelled_by,
      totalMinor: booking.total_price_minor,
      currency: booking.currency,
      startAt: instantFromDb(booking.start_at),
      now,
    });
    await releaseReservations(trx, booking.id);
    const cancelled = await markCancelled(trx, booking.id, {
      now,
      cancelledBy: body.cancelled_by,
      reason: body.reason,
      feeMinor: fee.feeMinor,
      policyText: fee.policy,
    });
    await recordBookingEvent(trx, 'booking.cancelled', cancelled);
    await audit?.record(trx, {
      organisationId: booking.organisation_id,
      action: 'booking.cancelled',
      target: { type: 'booking', id: booking.id, label: `#${booking.booking_number}` },
    });
    return cancelled;
  });
}
