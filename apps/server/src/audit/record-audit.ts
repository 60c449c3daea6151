import { randomUUID } from 'node:crypto';
import type { AuditAction, AuditTargetType } from '@spa/contract/dashboard';
import type { Temporal } from 'temporal-polyfill';
import type { Transaction } from 'kysely';
import type { Db } from '../db/connect.js';
import type { Database } from '../db/schema.js';

/** Who did it: a signed-in person (their email as it is now), or the operator at the CLI. */
export type AuditActor = { type: 'person'; personId: string; email: string } | { type: 'operator' };

export const OPERATOR: AuditActor = { type: 'operator' };

export interface AuditEntry {
  organisationId: string;
  actor: AuditActor;
  action: AuditAction;
  /** What it was done to, by id; never a secret, a password or a token. */
  target: { type: AuditTargetType; id: string } | null;
  /** Null for the CLI, which has no client address. */
  ip: string | null;
  userAgent: string | null;
  at: Temporal.Instant;
}

/**
 * Appends one row to the audit log. Call it inside the transaction of the change it records, so the change and
 * its record commit or roll back together. The entry's fields are ids, names of actions and request metadata
 * only: nothing here can carry a secret.
 */
export async function recordAudit(trx: Transaction<Database> | Db, entry: AuditEntry): Promise<void> {
  await trx
    .insertInto('audit_events')
    .values({
      id: randomUUID(),
      organisation_id: entry.organisationId,
      actor_type: entry.actor.type,
      actor_person_id: entry.actor.type === 'person' ? entry.actor.personId : null,
      actor_email: entry.actor.type === 'person' ? entry.actor.email : null,
      action: entry.action,
      target_type: entry.target?.type ?? null,
      target_id: entry.target?.id ?? null,
      ip: entry.ip,
      user_agent: entry.userAgent,
      created_at: entry.at.toString(),
    })
    .execute();
}
