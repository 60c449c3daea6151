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
