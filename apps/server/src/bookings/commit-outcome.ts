import type { Db } from '../db/connect.js';
import { BOOKING_COLUMNS, type BookingRow } from '../db/columns.js';

/**
 * A connection lost while COMMIT was on its way leaves the outcome unknown: the booking may exist. Before the
 * create is reported as unavailable (503), a fresh connection looks for the booking's id; found, it was created
 * and the partner gets its 201. Not found, or the database still unreachable, the 503 stands: a retry with the
 * same external_id then replays the booking if it did commit (docs/decisions.md "Running in production").
 */
export async function bookingIfCommitted(db: Db, bookingId: string): Promise<BookingRow | undefined> {
  try {
    return await db.selectFrom('bookings').select(BOOKING_COLUMNS).where('id', '=', bookingId).executeTakeFirst();
  } catch {
    return undefined;
  }
}
