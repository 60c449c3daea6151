import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/connect.js';
import { NoSuchBookingError } from '../errors/domain-errors.js';
import type { BookingRow } from '../db/columns.js';
import { findBookingById } from './bookings.repository.js';
import { resolveBookingId } from './cancel-booking.js';

/** One booking by UUID or `ext:{external_id}`, behind the same venue boundary as cancel. */
export async function getBooking(db: Db, principal: Principal, bookingRef: string): Promise<BookingRow> {
  const id = await resolveBookingId(db, principal, bookingRef, 'read');
  const booking = await findBookingById(db, id);
  if (!booking) throw new NoSuchBookingError(); // deleted between the two reads
  return booking;
}
