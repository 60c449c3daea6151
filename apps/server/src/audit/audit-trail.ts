import type { AuditAction, AuditTargetType } from '@spa/contract/dashboard';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Clock } from '../lib/clock.js';
import { type AuditActor, OPERATOR, recordAudit } from './record-audit.js';

/** What one audited change says of itself: whose record, what was done, to what (by id and name; never a secret). */
export interface AuditedChange {
  organisationId: string;
  action: AuditAction;
  target: { type: AuditTargetType; id: string; label?: string | null | undefined };
}

/**
 * Where a service writes the audit row of its change, inside the change's own transaction. The caller binds who
 * acts and from where (a dashboard person with their address, or the operator's CLI); the service names what it
 * did, so the CLI and the dashboard record the same action for the same change.
 */
export interface AuditTrail {
  record(trx: Transaction<Database>, change: AuditedChange): Promise<void>;
}

/** The trail of one actor, stamped with the clock's time. */
export function auditTrailOf(
  source: { actor: AuditActor; ip: string | null; userAgent: string | null },
  clock: Clock,
): AuditTrail {
  return { record: (trx, change) => recordAudit(trx, { ...change, ...source, at: clock.now() }) };
}

/** The CLI's trail: actor `operator`, no address. */
export const operatorTrail = (clock: Clock): AuditTrail =>
  auditTrailOf({ actor: OPERATOR, ip: null, userAgent: null }, clock);
