import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * The channel a booking's every change of status is announced on (its venue's id), in the writing transaction:
 * PostgreSQL delivers the notice when it commits and never if it rolls back. The availability notices cover the
 * changes that place, move or release holds; a status that changes no hold (a pending booking becoming
 * awaiting_therapist) is said only here. A channel of its own, so the availability cache is not emptied by a change
 * that cannot alter a slot.
 */
export const BOOKING_CHANGES_CHANNEL = 'booking_changes';

export async function announceBookingChange(trx: Transaction<Database>, venueId: string): Promise<void> {
  await sql`select pg_notify(${BOOKING_CHANGES_CHANNEL}, ${venueId})`.execute(trx);
}
