import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { AVAILABILITY_CHANGES_CHANNEL } from '../migrations/0010_availability_changes.js';
import { NOTIFY_IN_TRANSACTION_SETTING } from '../migrations/0016_availability_change_log.js';

/**
 * A booking of `venueId` changed status: logged as the availability triggers log a change of the venue (migration
 * 0016), so the venue desks' live pages hear it even when no hold moved (a pending booking becoming
 * awaiting_therapist). A row of `availability_changes` on PostgreSQL, folded into the triggers' own row of the same
 * transaction when there is one; the channel's notice in the transaction on the embedded database, whose one
 * session sets the setting.
 */
export async function logBookingChange(trx: Transaction<Database>, venueId: string): Promise<void> {
  await sql`
    with logged as (
      insert into availability_changes (venue_id)
      select ${venueId}::uuid where current_setting(${NOTIFY_IN_TRANSACTION_SETTING}, true) is distinct from 'in_transaction'
      on conflict do nothing
    )
    select pg_notify(${AVAILABILITY_CHANGES_CHANNEL}, ${venueId})
    where current_setting(${NOTIFY_IN_TRANSACTION_SETTING}, true) = 'in_transaction'
  `.execute(trx);
}
