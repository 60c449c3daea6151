import { randomUUID } from 'node:crypto';
import type { AuditAction, AuditTargetType } from '@spa/contract/dashboard';
import type { Temporal } from 'temporal-polyfill';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/connect.js';
import type { Database } from '../db/schema.js';

/** Who did it: a signed-in person (their email as it is now), the operator at the CLI, or a partner's API key. */
export type AuditActor =
  { type: 'person'; personId: string; email: string } | { type: 'operator' } | { type: 'api_key'; keyId: string };

export const OPERATOR: AuditActor = { type: 'operator' };

export interface AuditEntry {
  organisationId: string;
  actor: AuditActor;
  action: AuditAction;
  /** What it was done to, by id, and what it was called then; never a secret, a password or a token. */
  target: { type: AuditTargetType; id: string; label?: string | null | undefined } | null;
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
      actor_key_id: entry.actor.type === 'api_key' ? entry.actor.keyId : null,
      action: entry.action,
      target_type: entry.target?.type ?? null,
      target_id: entry.target?.id ?? null,
      target_label: entry.target?.label ?? null,
      ip: entry.ip,
      user_agent: entry.userAgent,
      created_at: entry.at.toString(),
    })
    .execute();
}

/**
 * Records a failed password check for `email`, in one statement whether or not a person has that email: the row
 * is written only when one does (an unknown email belongs to no organisation's log), and the sign-in does the
 * same work either way. Its commit does not wait for the WAL to reach the disk (synchronous_commit off, for this
 * transaction only): a commit that wrote a row would otherwise wait for a flush that one writing nothing skips,
 * and that wait (tens of milliseconds on a busy disk) would tell a known email from an unknown one. A crash can
 * lose the last fraction of a second of these rows, never any other.
 */
export async function recordFailedSignIn(
  db: Db,
  attempt: { email: string; ip: string | null; userAgent: string | null; at: Temporal.Instant },
  action: Extract<AuditAction, 'session.sign_in_failed' | 'session.sign_in_throttled'> = 'session.sign_in_failed',
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`set local synchronous_commit = off`.execute(trx);
    await trx
      .insertInto('audit_events')
      .columns([
        'id',
        'organisation_id',
        'actor_type',
        'actor_person_id',
        'actor_email',
        'action',
        'target_type',
        'target_id',
        'target_label',
        'ip',
        'user_agent',
        'created_at',
      ])
      .expression(
        trx
          .selectFrom('people')
          .select((eb) => [
            eb.cast<string>(eb.val(randomUUID()), 'uuid').as('id'),
            'people.organisation_id',
            eb.val('person').as('actor_type'),
            'people.id as actor_person_id',
            'people.email as actor_email',
            eb.val(action).as('action'),
            eb.val('person').as('target_type'),
            eb.cast<string>('people.id', 'text').as('target_id'),
            'people.email as target_label',
            eb.cast<string | null>(eb.val(attempt.ip), 'text').as('ip'),
            eb.cast<string | null>(eb.val(attempt.userAgent), 'text').as('user_agent'),
            eb.cast<string>(eb.val(attempt.at.toString()), 'timestamptz').as('created_at'),
          ])
          .where('people.email', '=', attempt.email),
      )
      .execute();
  });
}
