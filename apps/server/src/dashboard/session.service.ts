import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { recordAudit, recordFailedSignIn } from '../audit/record-audit.js';
import { invalidCredentials, invalidPassword, notFound, notSignedIn } from '../errors/dashboard-errors.js';
import { RateLimitedError } from '../errors/domain-errors.js';
import { DashboardErrorText } from '@spa/contract/dashboard';
import { instantFromDb, isoFromDb } from '../lib/instant.js';
import type { DashboardActor, RequestOrigin } from './dashboard-actor.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { findPersonForSignIn, recordSignIn, setPassword } from './people.repository.js';
import {
  confirmSession,
  deleteExpiredSessionsOf,
  deleteSession,
  deleteSessionOf,
  endReasonOf,
  endSessionsOf,
  findLiveSession,
  hasSignedInFrom,
  insertSession,
  listLiveSessionsOf,
  touchSession,
} from './sessions.repository.js';
import { hashToken, newToken } from './tokens.js';

/** A session ends after 30 minutes without a request, and 12 hours after sign-in whatever happens. */
export const IDLE_TIMEOUT = Temporal.Duration.from({ minutes: 30 });
export const ABSOLUTE_TIMEOUT = Temporal.Duration.from({ hours: 12 });
/** A session's last_seen_at is written at most this often: one write a minute, not one per request. */
const TOUCH_EVERY = Temporal.Duration.from({ minutes: 1 });

type Deps = Pick<DashboardDeps, 'db' | 'clock' | 'throttle'>;

/**
 * Checks the password and opens a session. An unknown email and a wrong password take the same path: the same
 * queries, an argon2 verification (against a dummy hash for the unknown email), the same failure count and the
 * same answer, so neither the status, the body nor the time tells whether the email exists.
 */
export async function signIn(
  deps: Deps,
  input: { email: string; password: string },
  origin: RequestOrigin,
): Promise<{ token: string; actor: DashboardActor }> {
  const { db, clock, throttle } = deps;
  await throttled(deps, input.email, origin);
  const person = await findPersonForSignIn(db, input.email);
  const matches = await verifyPassword(person?.password_hash, input.password);
  const now = clock.now();
  if (!person || !matches) {
    await throttle.recordFailure(input.email, origin.ip);
    // One statement either way: it writes the audit row only when the email belongs to a person.
    await recordFailedSignIn(db, { email: input.email, ...origin, at: now });
    throw invalidCredentials();
  }
  await throttle.recordSuccess(input.email, origin.ip);
  const token = newToken();
  const sessionId = randomUUID();
  const csrfToken = newToken();
  await db.transaction().execute(async (trx) => {
    await deleteExpiredSessionsOf(trx, person.id, now, now.subtract(IDLE_TIMEOUT));
    await insertSession(trx, {
      id: sessionId,
      personId: person.id,
      tokenHash: hashToken(token),
      csrfToken,
      now,
      absoluteExpiresAt: now.add(ABSOLUTE_TIMEOUT),
      ...origin,
    });
    await recordSignIn(trx, person.id, now);
    await recordAudit(trx, {
      organisationId: person.organisation_id,
      actor: { type: 'person', personId: person.id, email: person.email },
      action: 'session.signed_in',
      target: null,
      ...origin,
      at: now,
    });
  });
  return {
    token,
    actor: {
      personId: person.id,
      email: person.email,
      organisationId: person.organisation_id,
      role: person.role,
      venueIds: person.venue_ids,
      sessionId,
      csrfToken,
      confirmedAt: now,
      expiresAt: earlier(now.add(IDLE_TIMEOUT), now.add(ABSOLUTE_TIMEOUT)),
    },
  };
}

/**
 * The throttle's verdict on a password check for `email` from this address; a refusal of a known person's email is
 * recorded in their organisation's audit log (in one statement, as a failure is: an unknown email writes nothing).
 */
async function throttled(deps: Deps, email: string, origin: RequestOrigin): Promise<void> {
  try {
    await deps.throttle.check(email, origin.ip, () => hasSignedInFrom(deps.db, email, origin.ip));
  } catch (error) {
    if (error instanceof RateLimitedError)
      await recordFailedSignIn(deps.db, { email, ...origin, at: deps.clock.now() }, 'session.sign_in_throttled');
    throw error;
  }
}

/**
 * The person of a live session, which counts as used now; 401 `Not signed in` for a missing, ended or expired one,
 * with the reason when the session was ended for its holder (removed, password changed, signed out everywhere).
 */
export async function loadActor(deps: Pick<Deps, 'db' | 'clock'>, token: string | undefined): Promise<DashboardActor> {
  if (!token) throw notSignedIn();
  const now = deps.clock.now();
  const tokenHash = hashToken(token);
  const row = await findLiveSession(deps.db, tokenHash, now, now.subtract(IDLE_TIMEOUT));
  if (!row) throw notSignedIn(await endReasonOf(deps.db, tokenHash, now));
  const lastSeen = instantFromDb(row.last_seen_at);
  const seen = Temporal.Instant.compare(lastSeen.add(TOUCH_EVERY), now) <= 0 ? now : lastSeen;
  if (seen === now) await touchSession(deps.db, row.session_id, now);
  return {
    personId: row.person_id,
    email: row.email,
    organisationId: row.organisation_id,
    role: row.role,
    venueIds: row.venue_ids,
    sessionId: row.session_id,
    csrfToken: row.csrf_token,
    confirmedAt: row.confirmed_at === null ? null : instantFromDb(row.confirmed_at),
    expiresAt: earlier(seen.add(IDLE_TIMEOUT), instantFromDb(row.absolute_expires_at)),
  };
}

/** Ends the session at once: its token no longer opens anything, in any process. */
export async function signOut(deps: Pick<Deps, 'db' | 'clock'>, actor: DashboardActor, origin: RequestOrigin) {
  await deps.db.transaction().execute(async (trx) => {
    await deleteSession(trx, actor.sessionId);
    await recordAudit(trx, {
      organisationId: actor.organisationId,
      actor: { type: 'person', personId: actor.personId, email: actor.email },
      action: 'session.signed_out',
      target: null,
      ...origin,
      at: deps.clock.now(),
    });
  });
}

/**
 * Checks the signed-in person's password again (a confirmation, a password change). A wrong one counts towards
 * the sign-in throttle of the email (it is a password guess like any other), is recorded as a failed
 * confirmation (not as a failed sign-in: the person is signed in), and leaves the session as it was.
 */
async function checkOwnPassword(deps: Deps, actor: DashboardActor, password: string, origin: RequestOrigin) {
  await throttled(deps, actor.email, origin);
  const person = await findPersonForSignIn(deps.db, actor.email);
  const matches = await verifyPassword(person?.password_hash, password);
  if (matches) return;
  await deps.throttle.recordFailure(actor.email, origin.ip);
  await recordAudit(deps.db, {
    organisationId: actor.organisationId,
    actor: personOf(actor),
    action: 'session.confirmation_failed',
    target: null,
    ...origin,
    at: deps.clock.now(),
  });
  throw invalidPassword();
}

/** Confirms the password for the sensitive actions of the next 5 minutes. */
export async function confirmPassword(
  deps: Deps,
  actor: DashboardActor,
  password: string,
  origin: RequestOrigin,
): Promise<Temporal.Instant> {
  await checkOwnPassword(deps, actor, password, origin);
  const now = deps.clock.now();
  await confirmSession(deps.db, actor.sessionId, now);
  return now;
}

/**
 * Changes the password after checking the current one: every other session of the person ends at once (their
 * holders are told why), this one stays and counts as freshly confirmed. Answers how many sessions ended.
 */
export async function changePassword(
  deps: Deps,
  actor: DashboardActor,
  input: { currentPassword: string; newPassword: string },
  origin: RequestOrigin,
): Promise<number> {
  await checkOwnPassword(deps, actor, input.currentPassword, origin);
  const passwordHash = await hashPassword(input.newPassword);
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    await setPassword(trx, actor.personId, passwordHash, now);
    const ended = await endSessionsOf(trx, actor.personId, {
      reason: 'password_changed',
      now,
      except: actor.sessionId,
    });
    await confirmSession(trx, actor.sessionId, now);
    await recordAudit(trx, {
      organisationId: actor.organisationId,
      actor: personOf(actor),
      action: 'session.password_changed',
      target: null,
      ...origin,
      at: now,
    });
    return ended;
  });
}

/** The person's live sessions, this one marked. */
export async function listSessions(deps: Pick<Deps, 'db' | 'clock'>, actor: DashboardActor) {
  const now = deps.clock.now();
  const rows = await listLiveSessionsOf(deps.db, actor.personId, now, now.subtract(IDLE_TIMEOUT));
  return rows.map((row) => ({
    id: row.id,
    current: row.id === actor.sessionId,
    created_at: isoFromDb(row.created_at),
    last_seen_at: isoFromDb(row.last_seen_at),
    ip: row.ip,
    user_agent: row.user_agent,
  }));
}

/** Ends one of the person's sessions (another browser); 404 `Session not found` for anyone else's. */
export async function endSession(
  deps: Pick<Deps, 'db' | 'clock'>,
  actor: DashboardActor,
  sessionId: string,
  origin: RequestOrigin,
) {
  await deps.db.transaction().execute(async (trx) => {
    if (!(await deleteSessionOf(trx, actor.personId, sessionId))) throw notFound(DashboardErrorText.SessionNotFound);
    await recordAudit(trx, {
      organisationId: actor.organisationId,
      actor: personOf(actor),
      action: 'session.ended',
      target: { type: 'session', id: sessionId },
      ...origin,
      at: deps.clock.now(),
    });
  });
}

/** Signs the person out everywhere: every session ends, this one included; the others' holders are told why. */
export async function signOutEverywhere(
  deps: Pick<Deps, 'db' | 'clock'>,
  actor: DashboardActor,
  origin: RequestOrigin,
) {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await deleteSession(trx, actor.sessionId);
    await endSessionsOf(trx, actor.personId, { reason: 'signed_out_everywhere', now });
    await recordAudit(trx, {
      organisationId: actor.organisationId,
      actor: personOf(actor),
      action: 'session.signed_out_everywhere',
      target: null,
      ...origin,
      at: now,
    });
  });
}

const personOf = (actor: DashboardActor) => ({
  type: 'person' as const,
  personId: actor.personId,
  email: actor.email,
});

function earlier(a: Temporal.Instant, b: Temporal.Instant): Temporal.Instant {
  return Temporal.Instant.compare(a, b) <= 0 ? a : b;
}
