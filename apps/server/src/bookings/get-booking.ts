import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/connect.js';
import type { BookingRow } from '../db/columns.js';
import { resolveBooking } from './resolve-booking.js';

/** One booking by UUID or `ext:{external_id}`, behind the same venue boundary as cancel, in one read. */
export async function getBooking(db: Db, principal: Principal, bookingRef: string): Promise<BookingRow> {
  return resolveBooking(db, principal, bookingRef, 'read');
}
