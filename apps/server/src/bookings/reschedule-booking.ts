import type { RescheduleBookingBody } from '@spa/contract';
import { Temporal } from 'temporal-polyfill';
import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/connect.js';
import type { BookingRow } from '../db/columns.js';
import type { Database } from '../db/schema.js';
import {
  BookingAlreadyCancelledError,
  BookingNotReschedulableError,
  RescheduleFeeAppliesError,
} from '../errors/domain-errors.js';
import { instantFromDb } from '../lib/instant.js';
import { toMoney } from '../lib/money.js';
import { selectSnapshotRow, toSnapshotVariant } from '../scheduling/index.js';
import { findVenueWithVariant } from '../venues/venues.repository.js';
import { recordRescheduledEvent } from '../webhooks/record-event.js';
import { type BookingWithVenue, insertHolds, releaseReservations } from './bookings.repository.js';
import { cancellationFee } from './cancellation-policy.js';
import { checkStartAt, placeHolds, retryLostRaces, slotClaim } from './place-holds.js';
import { moveBooking, therapistsToKeep } from './reschedule.repository.js';
import { resolveBooking } from './resolve-booking.js';

export interface RescheduleBookingOptions {
  db: Db;
  principal: Principal;
  bookingRef: string;
  body: z.infer<typeof RescheduleBookingBody>;
  now: Temporal.Instant;
  /** Records the move in the audit log, in its transaction. */
  audit?: AuditTrail | undefined;
}

/**
 * docs/api.md, "POST /v1/bookings/{booking_id}/reschedule", in one transaction: the booking found and row-locked
 * (so a cancel or an acceptance of it waits, or goes first), its refusals, its own holds released, then the create
 * path's placeHolds decides the new slot, locks and writes its holds (the released ones no longer count against
 * it). Its accepted therapists are kept when every one of them is still qualified, on shift and free; otherwise it
 * is pending again with new tentative therapists. A lost race runs the whole transaction again on fresh data.
 */
export async function rescheduleBooking(options: RescheduleBookingOptions): Promise<BookingRow> {
  const startAt = checkStartAt(options.body.start_at, options.now);
  return retryLostRaces(() => options.db.transaction().execute((trx) => moveOnce(trx, startAt, options)));
}

async function moveOnce(
  trx: Transaction<Database>,
  startAt: Temporal.Instant,
  { principal, bookingRef, now, audit }: RescheduleBookingOptions,
): Promise<BookingRow> {
  const booking = await resolveBooking(trx, principal, bookingRef, 'reschedule', { lock: true });
  checkReschedulable(booking, now);
  // The same start: nothing to move, nothing announced.
  if (Temporal.Instant.compare(instantFromDb(booking.start_at), startAt) === 0) return booking;
  checkNoFee(booking, now);

  const found = await findVenueWithVariant(trx, { id: booking.venue_id }, booking.variant_id);
  if (!found?.variant) throw new Error(`Booking ${booking.id} has no variant ${booking.variant_id}`);
  const { variant, ...venue } = found;
  const keepTherapistIds = await therapistsToKeep(trx, booking);
  const claim = slotClaim(venue, toSnapshotVariant(variant), {
    startAt,
    guestCount: booking.guest_count,
    now,
    keepTherapistIds,
  });

  await releaseReservations(trx, booking.id);
  const row = await selectSnapshotRow(trx, claim.query);
  const { written } = await placeHolds(trx, claim, row, async (holds, decision) => {
    const placed = await insertHolds(trx, { id: booking.id, venueId: booking.venue_id }, holds);
    if (placed !== 'placed') return undefined;
    return moveBooking(trx, {
      bookingId: booking.id,
      start: startAt,
      end: claim.end,
      now,
      handOver: keepTherapistIds.length > 0 && !decision.keptTherapists,
      offeredTherapistIds: decision.offeredTherapistIds,
    });
  });
  await recordRescheduledEvent(trx, written, booking);
  await audit?.record(trx, {
    organisationId: booking.organisation_id,
    action: 'booking.rescheduled',
    target: { type: 'booking', id: booking.id, label: `#${booking.booking_number}` },
  });
  return written;
}

/** Only a live booking that has not started can move. */
function checkReschedulable(booking: BookingWithVenue, now: Temporal.Instant) {
  if (booking.status === 'cancelled') throw new BookingAlreadyCancelledError(booking.status, 'rescheduled');
  if (booking.status === 'completed' || booking.status === 'no_show')
    throw new BookingNotReschedulableError(`is ${booking.status.replace('_', '-')}`);
  if (Temporal.Instant.compare(now, instantFromDb(booking.start_at)) >= 0)
    throw new BookingNotReschedulableError('has started');
}

/** A move is free only while a partner cancellation would be: inside a fee tier the partner cancels instead. */
function checkNoFee(booking: BookingWithVenue, now: Temporal.Instant) {
  const fee = cancellationFee({
    policy: booking.cancellation_policy,
    cancelledBy: 'partner',
    totalMinor: booking.total_price_minor,
    currency: booking.currency,
    startAt: instantFromDb(booking.start_at),
    now,
  });
  if (fee.feeMinor > 0) throw new RescheduleFeeAppliesError(toMoney(fee.feeMinor, booking.currency));
}
