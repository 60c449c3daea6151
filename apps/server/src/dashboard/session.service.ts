import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { recordAudit, recordFailedSignIn } from '../audit/record-audit.js';
import { invalidCredentials, invalidPassword, notSignedIn } from '../errors/dashboard-errors.js';
import { instantFromDb } from '../lib/instant.js';
import type { DashboardActor, RequestOrigin } from './dashboard-actor.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { verifyPassword } from './passwords.js';
import { findPersonForSignIn, recordSignIn } from './people.repository.js';
import {
  confirmSession,
  deleteExpiredSessionsOf,
  deleteSession,
  findLiveSession,
  insertSession,
  touchSession,
} from './sessions.repository.js';
import { hashToken, newToken } from './tokens.js';

/** DECISIONS: a session ends after 30 minutes without a request, and 12 hours after sign-in whatever happens. */
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
  await throttle.check(input.email, origin.ip);
  const person = await findPersonForSignIn(db, input.email);
  const matches = await verifyPassword(person?.password_hash, input.password);
  const now = clock.now();
  if (!person || !matches) {
    await throttle.recordFailure(input.email, origin.ip);
    // One statement either way: it writes the audit row only when the email belongs to a person.
    await recordFailedSignIn(db, { email: input.email, ...origin, at: now });
    throw invalidCredentials();
  }
  await throttle.recordSuccess(input.email);
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

/** The person of a live session, which counts as used now; 401 `Not signed in` for a missing, ended or expired one. */
export async function loadActor(deps: Pick<Deps, 'db' | 'clock'>, token: string | undefined): Promise<DashboardActor> {
  if (!token) throw notSignedIn();
  const now = deps.clock.now();
  const row = await findLiveSession(deps.db, hashToken(token), now, now.subtract(IDLE_TIMEOUT));
  if (!row) throw notSignedIn();
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
 * Confirms the password for the sensitive actions of the next 5 minutes. A wrong one counts towards the sign-in
 * throttle of the email (it is a password guess like any other) and leaves the session as it was.
 */
export async function confirmPassword(
  deps: Deps,
  actor: DashboardActor,
  password: string,
  origin: RequestOrigin,
): Promise<Temporal.Instant> {
  await deps.throttle.check(actor.email, origin.ip);
  const person = await findPersonForSignIn(deps.db, actor.email);
  const matches = await verifyPassword(person?.password_hash, password);
  const now = deps.clock.now();
  if (!matches) {
    await deps.throttle.recordFailure(actor.email, origin.ip);
    await recordFailedSignIn(deps.db, { email: actor.email, ...origin, at: now });
    throw invalidPassword();
  }
  await confirmSession(deps.db, actor.sessionId, now);
  return now;
}

function earlier(a: Temporal.Instant, b: Temporal.Instant): Temporal.Instant {
  return Temporal.Instant.compare(a, b) <= 0 ? a : b;
}
