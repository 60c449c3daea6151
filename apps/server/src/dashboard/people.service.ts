import { randomUUID } from 'node:crypto';
import {
  DashboardErrorText,
  type PendingInvitation,
  type Role,
  type SentInvitation,
  type User,
} from '@spa/contract/dashboard';
import { Temporal } from 'temporal-polyfill';
import type { z } from 'zod';
import { type AuditActor, recordAudit } from '../audit/record-audit.js';
import type { Db } from '../db/connect.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import { DashboardError, notFound } from '../errors/dashboard-errors.js';
import type { Trx } from '../import/upsert.js';
import { isoFromDb, isoSeconds } from '../lib/instant.js';
import type { RequestOrigin } from './dashboard-actor.js';
import { hashPassword } from './passwords.js';
import { endSessionsOf } from './sessions.repository.js';
import {
  deletePerson,
  findLiveInvitation,
  insertInvitation,
  insertPerson,
  deletePendingInvitation,
  listPeople,
  pendingInvitations,
  markInvitationAccepted,
  organisationOfEmail,
  personWithEmailExists,
  setAccess,
  venuesByIds,
} from './people.repository.js';
import { hashToken, newToken } from './tokens.js';

/** An invitation works once, for 72 hours. */
export const INVITATION_VALIDITY = Temporal.Duration.from({ hours: 72 });

const emailTaken = () => new DashboardError(409, DashboardErrorText.EmailTaken);

export interface InviteInput {
  organisationId: string;
  email: string;
  role: Role;
  /** Resolved venue ids of the organisation (desk); empty for admin. */
  venueIds: readonly string[];
  actor: AuditActor;
  origin: RequestOrigin;
  publicUrl: string;
  now: Temporal.Instant;
}

/**
 * Invites a person: an invitation whose token only its URL holds (the table keeps the hash). A pending
 * invitation of the same email to the same organisation is replaced, so only the newest URL works. A person of
 * this organisation with the email is refused (409); one of another organisation is not (the answer
 * must not tell an admin that the email has an account elsewhere): the invitation is made, and its holder learns
 * at acceptance that the email is taken. `elsewhere` says so to the operator's CLI, which may know.
 */
export async function invitePerson(
  db: Db,
  input: InviteInput,
): Promise<z.infer<typeof SentInvitation> & { elsewhere: boolean }> {
  const token = newToken();
  const id = randomUUID();
  const expiresAt = input.now.add(INVITATION_VALIDITY);
  let elsewhere = false;
  await db.transaction().execute(async (trx) => {
    const organisationId = await organisationOfEmail(trx, input.email);
    if (organisationId === input.organisationId) throw emailTaken();
    elsewhere = organisationId !== undefined;
    await insertInvitation(trx, {
      id,
      organisationId: input.organisationId,
      email: input.email,
      role: input.role,
      venueIds: [...input.venueIds],
      tokenHash: hashToken(token),
      invitedBy: input.actor.type === 'person' ? input.actor.personId : null,
      now: input.now,
      expiresAt,
    });
    await recordAudit(trx, {
      organisationId: input.organisationId,
      actor: input.actor,
      action: 'person.invited',
      target: { type: 'invitation', id, label: input.email },
      ...input.origin,
      at: input.now,
    });
  });
  const venues = await venuesByIds(db, input.organisationId, input.venueIds);
  return {
    id,
    email: input.email,
    role: input.role,
    venues,
    expires_at: isoSeconds(expiresAt),
    url: `${input.publicUrl}/dashboard/invitations/${token}`,
    elsewhere,
  };
}

/** The invitation behind a token, if it is still unused and within its 72 hours; else 404 `Invitation not found`. */
export async function readInvitation(db: Db | Trx, token: string, now: Temporal.Instant) {
  const invitation = await findLiveInvitation(db, hashToken(token), now);
  if (!invitation) throw notFound(DashboardErrorText.InvitationNotFound);
  return invitation;
}

/**
 * Accepts an invitation: the person is created with the password's argon2id hash, the invitation is used up, and
 * both are recorded in one transaction (two acceptances at once: one wins, the other finds it used).
 */
export async function acceptInvitation(
  db: Db,
  input: { token: string; password: string; origin: RequestOrigin; now: Temporal.Instant },
): Promise<z.infer<typeof User>> {
  // Hashing takes tens of milliseconds: done before the transaction, not while holding its locks.
  const passwordHash = await hashPassword(input.password);
  const personId = randomUUID();
  try {
    return await db.transaction().execute(async (trx) => {
      const invitation = await readInvitation(trx, input.token, input.now);
      if (!(await markInvitationAccepted(trx, invitation.id, input.now)))
        throw notFound(DashboardErrorText.InvitationNotFound);
      if (await personWithEmailExists(trx, invitation.email)) throw emailTaken();
      // A venue removed since the invitation was sent is dropped; the others are checked to be the organisation's.
      const venues = await venuesByIds(trx, invitation.organisation_id, invitation.venue_ids);
      await insertPerson(trx, {
        id: personId,
        organisationId: invitation.organisation_id,
        email: invitation.email,
        role: invitation.role,
        passwordHash,
        venueIds: venues.map((v) => v.id),
        now: input.now,
      });
      await recordAudit(trx, {
        organisationId: invitation.organisation_id,
        actor: { type: 'person', personId, email: invitation.email },
        action: 'invitation.accepted',
        target: { type: 'invitation', id: invitation.id, label: invitation.email },
        ...input.origin,
        at: input.now,
      });
      return {
        id: personId,
        email: invitation.email,
        role: invitation.role,
        venues,
        created_at: isoSeconds(input.now),
        last_sign_in_at: null,
      };
    });
  } catch (error) {
    // Another organisation's invitation of the same email accepted at the same moment.
    if (isUniqueViolation(error, 'people_email_key')) throw emailTaken();
    throw error;
  }
}

/** The people of an organisation, by email, with their venues. */
export async function listUsers(db: Db, organisationId: string, window: { offset: number; limit: number }) {
  const { rows, total } = await listPeople(db, organisationId, window);
  const venueIds = [...new Set(rows.flatMap((r) => r.venue_ids))];
  const venues = new Map((await venuesByIds(db, organisationId, venueIds)).map((v) => [v.id, v]));
  const users: z.infer<typeof User>[] = rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: r.role,
    venues: r.venue_ids.flatMap((id) => venues.get(id) ?? []),
    created_at: isoFromDb(r.created_at),
    last_sign_in_at: r.last_sign_in_at === null ? null : isoFromDb(r.last_sign_in_at),
  }));
  return { users, total };
}

/**
 * Removes a person of the organisation and ends every session of theirs at once; answers how many ended.
 * Another organisation's person, or none, is 404 `User not found`.
 */
export async function removePerson(
  db: Db,
  input: { organisationId: string; personId: string; actor: AuditActor; origin: RequestOrigin; now: Temporal.Instant },
): Promise<{ sessionsEnded: number }> {
  if (input.actor.type === 'person' && input.actor.personId === input.personId)
    throw new DashboardError(409, DashboardErrorText.CannotRemoveSelf);
  return db.transaction().execute(async (trx) => {
    const removed = await deletePerson(trx, input.organisationId, input.personId, (personId) =>
      // Before the row goes (its sessions cascade): each open session's holder will be told they were removed.
      endSessionsOf(trx, personId, { reason: 'removed', now: input.now }),
    );
    if (!removed) throw notFound(DashboardErrorText.UserNotFound);
    const sessionsEnded = removed.sessionsEnded;
    await recordAudit(trx, {
      organisationId: input.organisationId,
      actor: input.actor,
      action: 'person.removed',
      target: { type: 'person', id: input.personId, label: removed.email },
      ...input.origin,
      at: input.now,
    });
    return { sessionsEnded };
  });
}

/**
 * Changes a person's role and (desk) venues. Their open sessions read the person at every request, so the change
 * applies from their next one. Nobody changes their own access (an admin could not undo demoting themselves).
 */
export async function updateAccess(
  db: Db,
  input: {
    organisationId: string;
    personId: string;
    role: Role;
    venueIds: readonly string[];
    actor: AuditActor;
    origin: RequestOrigin;
    now: Temporal.Instant;
  },
): Promise<z.infer<typeof User>> {
  if (input.actor.type === 'person' && input.actor.personId === input.personId)
    throw new DashboardError(409, DashboardErrorText.CannotChangeOwnAccess);
  return db.transaction().execute(async (trx) => {
    const person = await setAccess(trx, input.organisationId, input.personId, input.role, input.venueIds);
    if (!person) throw notFound(DashboardErrorText.UserNotFound);
    await recordAudit(trx, {
      organisationId: input.organisationId,
      actor: input.actor,
      action: 'person.updated',
      target: { type: 'person', id: input.personId, label: person.email },
      ...input.origin,
      at: input.now,
    });
    const venues = await venuesByIds(trx, input.organisationId, input.venueIds);
    return {
      id: person.id,
      email: person.email,
      role: input.role,
      venues,
      created_at: isoFromDb(person.created_at),
      last_sign_in_at: person.last_sign_in_at === null ? null : isoFromDb(person.last_sign_in_at),
    };
  });
}

/** The organisation's invitations not yet accepted and still valid, newest first, with their inviter's email. */
export async function listPendingInvitations(
  db: Db,
  organisationId: string,
  now: Temporal.Instant,
  window: { offset: number; limit: number },
) {
  const { rows, total } = await pendingInvitations(db, organisationId, now, window);
  const venues = new Map(
    (await venuesByIds(db, organisationId, [...new Set(rows.flatMap((r) => r.venue_ids))])).map((v) => [v.id, v]),
  );
  const invitations: z.infer<typeof PendingInvitation>[] = rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: r.role,
    venues: r.venue_ids.flatMap((id) => venues.get(id) ?? []),
    invited_by: r.invited_by_email,
    created_at: isoFromDb(r.created_at),
    expires_at: isoFromDb(r.expires_at),
  }));
  return { invitations, total };
}

/** Revokes a pending invitation of the organisation: its link answers 404 at once. */
export async function revokeInvitation(
  db: Db,
  input: {
    organisationId: string;
    invitationId: string;
    actor: AuditActor;
    origin: RequestOrigin;
    now: Temporal.Instant;
  },
): Promise<{ email: string }> {
  return db.transaction().execute(async (trx) => {
    const revoked = await deletePendingInvitation(trx, input.organisationId, input.invitationId);
    if (!revoked) throw notFound(DashboardErrorText.InvitationNotFound);
    await recordAudit(trx, {
      organisationId: input.organisationId,
      actor: input.actor,
      action: 'invitation.revoked',
      target: { type: 'invitation', id: input.invitationId, label: revoked.email },
      ...input.origin,
      at: input.now,
    });
    return revoked;
  });
}
