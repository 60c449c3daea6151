import { isUuid } from '@spa/contract';
import type { Role } from '@spa/contract/dashboard';
import { sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { Db } from '../db/connect.js';
import type { Trx } from '../import/upsert.js';

/** The desk venues of a person, as an array column of the select it is used in. */
export const venueIdsOfPerson = sql<
  string[]
>`array(select venue_id from person_venues where person_id = people.id order by venue_id)`;

/** What a password check needs. Emails are stored lower-case; the caller passes a lower-cased one. */
export function findPersonForSignIn(db: Db | Trx, email: string) {
  return db
    .selectFrom('people')
    .select(['id', 'organisation_id', 'email', 'role', 'password_hash', venueIdsOfPerson.as('venue_ids')])
    .where('email', '=', email)
    .executeTakeFirst();
}

export async function recordSignIn(trx: Trx, personId: string, now: Temporal.Instant): Promise<void> {
  await trx.updateTable('people').set({ last_sign_in_at: now.toString() }).where('id', '=', personId).execute();
}

export function personWithEmailExists(db: Db | Trx, email: string): Promise<boolean> {
  return db
    .selectFrom('people')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst()
    .then((row) => row !== undefined);
}

export interface NewInvitation {
  id: string;
  organisationId: string;
  email: string;
  role: Role;
  venueIds: string[];
  tokenHash: string;
  invitedBy: string | null;
  now: Temporal.Instant;
  expiresAt: Temporal.Instant;
}

/** Stores an invitation, replacing a pending one of the same email to the same organisation. */
export async function insertInvitation(trx: Trx, invitation: NewInvitation): Promise<void> {
  await trx
    .deleteFrom('invitations')
    .where('organisation_id', '=', invitation.organisationId)
    .where('email', '=', invitation.email)
    .where('accepted_at', 'is', null)
    .execute();
  await trx
    .insertInto('invitations')
    .values({
      id: invitation.id,
      organisation_id: invitation.organisationId,
      email: invitation.email,
      role: invitation.role,
      venue_ids: invitation.venueIds,
      token_hash: invitation.tokenHash,
      invited_by: invitation.invitedBy,
      created_at: invitation.now.toString(),
      expires_at: invitation.expiresAt.toString(),
    })
    .execute();
}

/** An unused invitation within its validity, with its organisation's slug and name. */
export function findLiveInvitation(db: Db | Trx, tokenHash: string, now: Temporal.Instant) {
  return db
    .selectFrom('invitations')
    .innerJoin('organisations', 'organisations.id', 'invitations.organisation_id')
    .select([
      'invitations.id',
      'invitations.organisation_id',
      'invitations.email',
      'invitations.role',
      'invitations.venue_ids',
      'invitations.expires_at',
      'organisations.slug as organisation_slug',
      'organisations.name as organisation_name',
    ])
    .where('invitations.token_hash', '=', tokenHash)
    .where('invitations.accepted_at', 'is', null)
    .where('invitations.expires_at', '>', now.toString())
    .executeTakeFirst();
}

/** Uses the invitation up; false when another acceptance got there first. */
export async function markInvitationAccepted(trx: Trx, id: string, now: Temporal.Instant): Promise<boolean> {
  const result = await trx
    .updateTable('invitations')
    .set({ accepted_at: now.toString() })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertPerson(
  trx: Trx,
  person: {
    id: string;
    organisationId: string;
    email: string;
    role: Role;
    passwordHash: string;
    venueIds: string[];
    now: Temporal.Instant;
  },
): Promise<void> {
  await trx
    .insertInto('people')
    .values({
      id: person.id,
      organisation_id: person.organisationId,
      email: person.email,
      role: person.role,
      password_hash: person.passwordHash,
      created_at: person.now.toString(),
      password_changed_at: person.now.toString(),
    })
    .execute();
  if (person.venueIds.length)
    await trx
      .insertInto('person_venues')
      .values(person.venueIds.map((venueId) => ({ person_id: person.id, venue_id: venueId })))
      .execute();
}

/** Venues of the organisation among `ids` (others are ignored), by name. */
export async function venuesByIds(db: Db | Trx, organisationId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('venues')
    .select(['id', 'slug', 'name'])
    .where('organisation_id', '=', organisationId)
    .where('id', 'in', ids)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** Venue ids of the organisation for UUIDs or slugs; `missing` lists the references that match none. */
export async function resolveVenueRefs(db: Db | Trx, organisationId: string, refs: readonly string[]) {
  if (refs.length === 0) return { ids: [], missing: [] };
  const uuids = refs.filter(isUuid);
  const rows = await db
    .selectFrom('venues')
    .select(['id', 'slug'])
    .where('organisation_id', '=', organisationId)
    .where((eb) => eb.or([eb('slug', 'in', refs), ...(uuids.length ? [eb('id', 'in', uuids)] : [])]))
    .execute();
  const ids: string[] = [];
  const missing: string[] = [];
  for (const ref of refs) {
    const row = rows.find((r) => r.id === ref || r.slug === ref);
    if (!row) missing.push(ref);
    else if (!ids.includes(row.id)) ids.push(row.id);
  }
  return { ids, missing };
}

export async function listPeople(db: Db, organisationId: string, window: { offset: number; limit: number }) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('people')
      .select(['id', 'email', 'role', 'created_at', 'last_sign_in_at', venueIdsOfPerson.as('venue_ids')])
      .where('organisation_id', '=', organisationId)
      .orderBy('email')
      .offset(window.offset)
      .limit(window.limit)
      .execute(),
    db
      .selectFrom('people')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('organisation_id', '=', organisationId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.count) };
}

/**
 * Deletes the person if they belong to the organisation (venues cascade), after `endSessions` ended their sessions;
 * undefined if there is no such person. Locks the row first, so a sign-in cannot add a session in between.
 */
export async function deletePerson(
  trx: Trx,
  organisationId: string,
  personId: string,
  endSessions: (personId: string) => Promise<number>,
): Promise<{ email: string; sessionsEnded: number } | undefined> {
  const person = await trx
    .selectFrom('people')
    .select(['id', 'email'])
    .where('id', '=', personId)
    .where('organisation_id', '=', organisationId)
    .forUpdate()
    .executeTakeFirst();
  if (!person) return undefined;
  const sessionsEnded = await endSessions(person.id);
  await trx.deleteFrom('people').where('id', '=', person.id).execute();
  return { email: person.email, sessionsEnded };
}

/** The organisation of the person with this email, if any. */
export async function organisationOfEmail(db: Db | Trx, email: string): Promise<string | undefined> {
  const row = await db.selectFrom('people').select('organisation_id').where('email', '=', email).executeTakeFirst();
  return row?.organisation_id;
}

/** Sets a person's role and desk venues; undefined when the person is not the organisation's. */
export async function setAccess(
  trx: Trx,
  organisationId: string,
  personId: string,
  role: Role,
  venueIds: readonly string[],
) {
  const person = await trx
    .updateTable('people')
    .set({ role })
    .where('id', '=', personId)
    .where('organisation_id', '=', organisationId)
    .returning(['id', 'email', 'created_at', 'last_sign_in_at'])
    .executeTakeFirst();
  if (!person) return undefined;
  await trx.deleteFrom('person_venues').where('person_id', '=', personId).execute();
  if (role === 'desk' && venueIds.length)
    await trx
      .insertInto('person_venues')
      .values(venueIds.map((venueId) => ({ person_id: personId, venue_id: venueId })))
      .execute();
  return person;
}

/** Invitations of the organisation not accepted and within their validity, newest first, with the inviter. */
export async function pendingInvitations(
  db: Db,
  organisationId: string,
  now: Temporal.Instant,
  window: { offset: number; limit: number },
) {
  const base = db
    .selectFrom('invitations')
    .where('invitations.organisation_id', '=', organisationId)
    .where('invitations.accepted_at', 'is', null)
    .where('invitations.expires_at', '>', now.toString());
  const [rows, count] = await Promise.all([
    base
      .leftJoin('people', 'people.id', 'invitations.invited_by')
      .select([
        'invitations.id',
        'invitations.email',
        'invitations.role',
        'invitations.venue_ids',
        'invitations.created_at',
        'invitations.expires_at',
        'people.email as invited_by_email',
      ])
      .orderBy('invitations.created_at', 'desc')
      .orderBy('invitations.id')
      .offset(window.offset)
      .limit(window.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.count) };
}

/** Deletes a pending invitation of the organisation; undefined when there is none with that id. */
export function deletePendingInvitation(trx: Trx, organisationId: string, id: string) {
  return trx
    .deleteFrom('invitations')
    .where('id', '=', id)
    .where('organisation_id', '=', organisationId)
    .where('accepted_at', 'is', null)
    .returning('email')
    .executeTakeFirst();
}

/** A new password hash, and when it was set. */
export async function setPassword(trx: Trx, personId: string, passwordHash: string, now: Temporal.Instant) {
  await trx
    .updateTable('people')
    .set({ password_hash: passwordHash, password_changed_at: now.toString() })
    .where('id', '=', personId)
    .execute();
}
