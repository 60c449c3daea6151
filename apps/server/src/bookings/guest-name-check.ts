import type { Logger } from 'pino';
import type { Db } from '../db/connect.js';

/**
 * Guests are matched to customers by email (docs/api.md, "Guests and customers"): a booking for a
 * known address keeps the stored name. When the name sent differs, the operator learns it from the log (a
 * warning with the customer id, never the names or the address), since agencies sharing one address merge
 * their guests. It runs after the answer is decided and never fails the request.
 */
export async function warnOnGuestNameMismatch(
  db: Db,
  customerId: string,
  guest: { first_name: string; last_name: string },
  log: Pick<Logger, 'warn'> | undefined,
): Promise<void> {
  try {
    const stored = await db
      .selectFrom('customers')
      .select(['first_name', 'last_name'])
      .where('id', '=', customerId)
      .executeTakeFirst();
    if (stored && (stored.first_name !== guest.first_name || stored.last_name !== guest.last_name))
      log?.warn(
        { customer_id: customerId },
        'guest name differs from the stored customer with that email; the booking uses the stored customer',
      );
  } catch {
    // Only a report: the booking is made either way.
  }
}
