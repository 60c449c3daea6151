import { type CancelBookingBody, isUuid } from '@spa/contract';
import type { Temporal } from 'temporal-polyfill';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/connect.js';
import {
  AmbiguousExternalIdError,
  BookingAlreadyCancelledError,
  BookingForbiddenError,
  BookingNotFoundError,
  ForbiddenError,
  NoSuchBookingError,
} from '../errors/domain-errors.js';
import { instantFromDb } from '../lib/instant.js';
import { canAccessVenue } from '../venues/venue-access.js';
import { recordBookingEvent } from '../webhooks/index.js';
import { BOOKING_COLUMNS, type BookingRow } from '../db/columns.js';
import { LIVE_STATUSES } from '../lib/booking-status.js';
import {
  findBookingById,
  findVisibleBookingsByExternalId,
  lockBooking,
  releaseReservations,
} from './bookings.repository.js';
import { cancellationFee } from './cancellation-policy.js';

const EXTERNAL_PREFIX = 'ext:';

export interface CancelBookingOptions {
  db: Db;
  principal: Principal;
  bookingRef: string;
  body: z.infer<typeof CancelBookingBody>;
  now: Temporal.Instant;
}

/** docs/api.md, "POST /v1/bookings/{booking_id}/cancel": applies the venue policy for `cancelled_by` and releases the room and therapists at once. */
export async function cancelBooking({
  db,
  principal,
  bookingRef,
  body,
  now,
}: CancelBookingOptions): Promise<BookingRow> {
  const bookingId = await resolveBookingId(db, principal, bookingRef);
  return db.transaction().execute(async (trx) => {
    const booking = await lockBooking(trx, bookingId);
    if (!booking) throw new BookingNotFoundError();
    if (!LIVE_STATUSES.includes(booking.status)) throw new BookingAlreadyCancelledError(booking.status);

    const venue = await trx
      .selectFrom('venues')
      .select('cancellation_policy')
      .where('id', '=', booking.venue_id)
      .executeTakeFirstOrThrow();
    const fee = cancellationFee({
      policy: venue.cancellation_policy,
      cancelledBy: body.cancelled_by,
      totalMinor: booking.total_price_minor,
      currency: booking.currency,
      startAt: instantFromDb(booking.start_at),
      now,
    });
    await releaseReservations(trx, booking.id);
    const cancelled = await trx
      .updateTable('bookings')
      .set({
        status: 'cancelled',
        cancelled_at: now.toString(),
        cancelled_by: body.cancelled_by,
        cancellation_reason: body.reason,
        cancellation_fee_minor: fee.feeMinor,
        cancellation_policy_text: fee.policy,
        updated_at: now.toString(),
      })
      .where('id', '=', booking.id)
      .returning(BOOKING_COLUMNS)
      .executeTakeFirstOrThrow();
    await recordBookingEvent(trx, 'booking.cancelled', cancelled);
    return cancelled;
  });
}

/** The refusals of each route on one booking: cancel answers upper-case codes, the read answers sentences. */
const REFUSALS = {
  cancel: {
    notFound: () => new BookingNotFoundError(),
    forbidden: () => new BookingForbiddenError(),
    ambiguous: () => new AmbiguousExternalIdError(),
  },
  read: {
    notFound: () => new NoSuchBookingError(),
    forbidden: () => new ForbiddenError(),
    ambiguous: () =>
      new AmbiguousExternalIdError('This external id matches bookings at several venues; use the booking id'),
  },
};

/** A UUID the key may touch, or `ext:{external_id}` among the bookings the key can see. */
export async function resolveBookingId(
  db: Db,
  principal: Principal,
  ref: string,
  route: keyof typeof REFUSALS = 'cancel',
): Promise<string> {
  const refuse = REFUSALS[route];
  if (ref.startsWith(EXTERNAL_PREFIX)) {
    const matches = await findVisibleBookingsByExternalId(db, principal, ref.slice(EXTERNAL_PREFIX.length));
    if (matches.length === 0) throw refuse.notFound();
    if (matches.length > 1) throw refuse.ambiguous();
    return matches[0]!.id;
  }
  if (!isUuid(ref)) throw refuse.notFound();
  const booking = await findBookingById(db, ref.toLowerCase());
  if (!booking) throw refuse.notFound();
  if (!canAccessVenue(principal, { id: booking.venue_id, organisation_id: booking.organisation_id }))
    throw refuse.forbidden();
  return booking.id;
}
