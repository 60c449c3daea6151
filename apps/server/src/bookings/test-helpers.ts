import type { Temporal } from 'temporal-polyfill';
import { scopeOfKey } from '../auth/organisation-scope.js';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/connect.js';
import type { BookingRow } from '../db/columns.js';
import { NoSuchBookingError, TestModeOnlyError } from '../errors/domain-errors.js';
import { listEligibleTherapists } from './booking-detail.repository.js';
import { findBookingById } from './bookings.repository.js';
import { expirePendingBooking } from './pending-timeout.js';
import { resolveBooking } from './resolve-booking.js';
import { acceptBooking, BookingStateConflictError, finishBooking } from './therapist-workflow.js';

/**
 * The test helpers (docs/api.md, "Test helpers"): what the venue's desk and the pending-timeout job do to a booking,
 * done on demand to a test booking, through their own code, so the status, the holds and the event are the real ones.
 */
export interface TestHelperInput {
  db: Db;
  principal: Principal;
  bookingRef: string;
  now: Temporal.Instant;
}

/** A live key is refused before anything is read; then the booking as the key sees it (404, 403, 409 ambiguous). */
async function testBooking({ db, principal, bookingRef }: TestHelperInput) {
  if (principal.livemode) throw new TestModeOnlyError();
  return resolveBooking(db, principal, bookingRef, 'read');
}

/** The booking as the step left it. */
async function reread(db: Db, id: string): Promise<BookingRow> {
  const row = await findBookingById(db, id);
  if (!row) throw new NoSuchBookingError();
  return row;
}

const stepContext = (input: TestHelperInput) => ({
  scope: scopeOfKey(input.principal),
  refuseMissing: () => new NoSuchBookingError(),
});

/** A therapist accepts (the named one, or the first offered one free now), as at the desk. */
export async function acceptTestBooking(input: TestHelperInput & { therapistId?: string | undefined }) {
  const booking = await testBooking(input);
  let therapistId = input.therapistId?.toLowerCase();
  if (therapistId === undefined) {
    const [first] = await listEligibleTherapists(input.db, booking.id);
    if (!first)
      throw new BookingStateConflictError(
        booking.status === 'pending' || booking.status === 'awaiting_therapist'
          ? `No therapist offered booking ${booking.id} is free at its time now; name one with therapist_id`
          : `Booking ${booking.id} is ${booking.status}; only pending or awaiting_therapist bookings can be accepted`,
      );
    therapistId = first.id;
  }
  await acceptBooking(input.db, { bookingId: booking.id, therapistId, now: input.now, ...stepContext(input) });
  return reread(input.db, booking.id);
}

/** The response time runs out now, as the pending-timeout job would find it. */
export async function expireTestBooking(input: TestHelperInput) {
  const booking = await testBooking(input);
  const expired = await input.db.transaction().execute((trx) => expirePendingBooking(trx, booking.id, input.now));
  if (!expired)
    throw new BookingStateConflictError(
      `Booking ${booking.id} is ${(await reread(input.db, booking.id)).status}; only a pending booking can expire`,
    );
  return expired;
}

/** The treatment took place (once started, as at the desk), or the guest did not come (at any time in test mode). */
export async function finishTestBooking(input: TestHelperInput & { outcome: 'completed' | 'no_show' }) {
  const booking = await testBooking(input);
  await finishBooking(input.db, {
    bookingId: booking.id,
    outcome: input.outcome,
    now: input.now,
    allowBeforeStart: input.outcome === 'no_show',
    ...stepContext(input),
  });
  return reread(input.db, booking.id);
}
