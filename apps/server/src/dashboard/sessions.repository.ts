import type { Temporal } from 'temporal-polyfill';
import type { Db } from '../db/connect.js';
import type { Trx } from '../import/upsert.js';
import { venueIdsOfPerson } from './people.repository.js';

/** A session with its person, as the guard loads it for every signed-in request. */
export interface SessionRow {
  session_id: string;
  csrf_token: string;
  last_seen_at: string;
  absolute_expires_at: string;
  confirmed_at: string | null;
  person_id: string;
  email: string;
  organisation_id: string;
  role: 'admin' | 'desk';
  venue_ids: string[];
}

export interface NewSession {
  id: string;
  personId: string;
  tokenHash: string;
  csrfToken: string;
  now: Temporal.Instant;
  absoluteExpiresAt: Temporal.Instant;
  ip: string | null;
  userAgent: string | null;
}

export async function insertSession(trx: Trx, s: NewSession): Promise<void> {
  await trx
    .insertInto('sessions')
    .values({
      id: s.id,
      person_id: s.personId,
      token_hash: s.tokenHash,
      csrf_token: s.csrfToken,
      created_at: s.now.toString(),
      last_seen_at: s.now.toString(),
      absolute_expires_at: s.absoluteExpiresAt.toString(),
      // Signing in is a password confirmation.
      confirmed_at: s.now.toString(),
      ip: s.ip,
      user_agent: s.userAgent,
    })
    .execute();
}

/** The live session with this token hash: seen since `idleSince`, and not past its absolute expiry at `now`. */
export function findLiveSession(
  db: Db,
  tokenHash: string,
  now: Temporal.Instant,
  idleSince: Temporal.Instant,
): Promise<SessionRow | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('people', 'people.id', 'sessions.person_id')
    .select([
      'sessions.id as session_id',
      'sessions.csrf_token',
      'sessions.last_seen_at',
      'sessions.absolute_expires_at',
      'sessions.confirmed_at',
      'people.id as person_id',
      'people.email',
      'people.organisation_id',
      'people.role',
      venueIdsOfPerson.as('venue_ids'),
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.absolute_expires_at', '>', now.toString())
    .where('sessions.last_seen_at', '>', idleSince.toString())
    .executeTakeFirst();
}

/** Marks the session used now, which moves its idle expiry. */
export async function touchSession(db: Db, sessionId: string, now: Temporal.Instant): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now.toString() }).where('id', '=', sessionId).execute();
}

export async function confirmSession(db: Db | Trx, sessionId: string, now: Temporal.Instant): Promise<void> {
  await db.updateTable('sessions').set({ confirmed_at: now.toString() }).where('id', '=', sessionId).execute();
}

export async function deleteSession(db: Db | Trx, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** Ends every session of a person of the organisation at once (removal); answers how many there were. */
export async function deleteSessionsOf(db: Db | Trx, personId: string, organisationId: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('person_id', '=', personId)
    .where('person_id', 'in', (eb) =>
      eb.selectFrom('people').select('id').where('organisation_id', '=', organisationId),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A person's sessions past either expiry open nothing; dropped when they sign in again, so the table stays small. */
export async function deleteExpiredSessionsOf(
  trx: Trx,
  personId: string,
  now: Temporal.Instant,
  idleSince: Temporal.Instant,
): Promise<void> {
  await trx
    .deleteFrom('sessions')
    .where('person_id', '=', personId)
    .where((eb) =>
      eb.or([eb('absolute_expires_at', '<=', now.toString()), eb('last_seen_at', '<=', idleSince.toString())]),
    )
    .execute();
}

export type EndReason = 'removed' | 'password_changed' | 'signed_out_everywhere';

/**
 * Ends sessions of a person for a reason their holders are told at their next request (ended_sessions keeps the
 * reason until the session would have expired anyway). `except` keeps one (the password changer's own).
 * Answers how many ended.
 */
export async function endSessionsOf(
  trx: Trx,
  personId: string,
  input: { reason: EndReason; now: Temporal.Instant; except?: string | undefined },
): Promise<number> {
  let query = trx.deleteFrom('sessions').where('person_id', '=', personId);
  if (input.except !== undefined) query = query.where('id', '!=', input.except);
  const ended = await query.returning(['token_hash', 'absolute_expires_at']).execute();
  if (ended.length)
    await trx
      .insertInto('ended_sessions')
      .values(
        ended.map((row) => ({
          token_hash: row.token_hash,
          reason: input.reason,
          ended_at: input.now.toString(),
          expires_at: row.absolute_expires_at,
        })),
      )
      .onConflict((oc) => oc.column('token_hash').doNothing())
      .execute();
  return ended.length;
}

/** Why the session of this token hash was ended for its holder, if it was and that is still worth saying. */
export async function endReasonOf(db: Db, tokenHash: string, now: Temporal.Instant): Promise<EndReason | undefined> {
  const row = await db
    .selectFrom('ended_sessions')
    .select('reason')
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now.toString())
    .executeTakeFirst();
  return row?.reason;
}

/** A person's live sessions, the latest sign-in first. */
export function listLiveSessionsOf(db: Db, personId: string, now: Temporal.Instant, idleSince: Temporal.Instant) {
  return db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_seen_at', 'ip', 'user_agent'])
    .where('person_id', '=', personId)
    .where('absolute_expires_at', '>', now.toString())
    .where('last_seen_at', '>', idleSince.toString())
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Ends one session of the person (another browser of theirs); false when it is not one of theirs. */
export async function deleteSessionOf(trx: Trx, personId: string, sessionId: string): Promise<boolean> {
  const result = await trx
    .deleteFrom('sessions')
    .where('id', '=', sessionId)
    .where('person_id', '=', personId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Whether the person has signed in from this address before (the audit log keeps each sign-in's address). */
export async function hasSignedInFrom(db: Db, email: string, ip: string | null): Promise<boolean> {
  if (ip === null) return false;
  const row = await db
    .selectFrom('audit_events')
    .innerJoin('people', 'people.id', 'audit_events.actor_person_id')
    .select('audit_events.id')
    .where('people.email', '=', email)
    .where('audit_events.action', '=', 'session.signed_in')
    .where('audit_events.ip', '=', ip)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
