import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

/** What one audited change says of itself: the action and the id of what it touched (never a secret). */
export interface AuditEntry {
  action: string;
  target: string;
}

/**
 * Where a service writes the audit row of its change, inside the change's own transaction. The caller binds who
 * acts and from where (a dashboard person with their address, or the operator's CLI); the service names what it
 * did, so the CLI and the dashboard record the same action for the same change.
 */
export interface AuditTrail {
  record(trx: Transaction<Database>, entry: AuditEntry): Promise<void>;
}
