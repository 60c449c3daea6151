import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { single, UtcInstant, Uuid } from '../common.js';
import {
  dashboardBodyErrors,
  dashboardErrors,
  forbidden,
  InvalidCredentialsErrorBody,
  SessionNotFoundErrorBody,
  InvalidPasswordErrorBody,
  NotSignedInErrorBody,
} from './errors.js';
import { failure } from '../errors.js';
import { DashboardVenue, Email, NewPassword, OrganisationSummary, PasswordAttempt, Role } from './people.js';
import { statuses } from '../statuses.js';

const c = initContract();

export const SignInBody = z.object({ email: Email, password: PasswordAttempt });
export const ConfirmBody = z.object({ password: PasswordAttempt });
export const ChangePasswordBody = z.object({ current_password: PasswordAttempt, new_password: NewPassword });

/** One session of the signed-in person, as the account page lists them. */
export const SessionInfo = z.object({
  id: Uuid,
  current: z.boolean().describe('The session of this request'),
  created_at: UtcInstant.describe('When it signed in'),
  last_seen_at: UtcInstant,
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
});

export const SessionPath = z.object({ id: Uuid });

/** Who is signed in: the person, their organisation, the venues they see, and what state-changing requests need. */
export const Me = z.object({
  id: Uuid.describe('The person'),
  email: z.string(),
  role: Role,
  organisation: OrganisationSummary,
  venues: z
    .array(DashboardVenue)
    .describe('The venues this person sees: every venue of the organisation for an admin, the listed ones for desk'),
  csrf_token: z.string().describe('Send it as X-CSRF-Token on every POST and DELETE of this session'),
  confirmed_until: UtcInstant.nullable().describe(
    'Until when the password counts as recently confirmed (key reveal and regenerate, secret rotation); null if not',
  ),
  expires_at: UtcInstant.describe('When the session ends unless used before: the sooner of idle and absolute expiry'),
});

export const sessionContract = c.router({
  signIn: {
    method: 'POST',
    path: '/session',
    body: SignInBody,
    responses: statuses({
      200: single(Me),
      ...dashboardErrors,
      ...dashboardBodyErrors,
      401: failure(
        '`Invalid email or password`, the same answer whether or not the email exists',
        InvalidCredentialsErrorBody,
      ),
      403: forbidden,
    }),
    summary: 'Sign in',
    description:
      'Sets the `spa_session` cookie (HttpOnly, SameSite=Lax, Path=/dashboard). Needs no CSRF token, but the Origin ' +
      'must be the dashboard. 5 failures for one email from one address in 15 minutes, 50 from one address, or 100 ' +
      'for one email from all addresses answer 429; failures from other addresses never lock a person out of an ' +
      'address they have signed in from.',
  },
  me: {
    method: 'GET',
    path: '/session',
    responses: statuses({ 200: single(Me), ...dashboardErrors }),
    summary: 'Who am I, with the CSRF token of the session',
  },
  signOut: {
    method: 'DELETE',
    path: '/session',
    body: c.noBody(),
    responses: statuses({ 204: c.noBody(), ...dashboardErrors, 403: forbidden }),
    summary: 'Sign out: the session ends at once and the cookie is cleared',
  },
  confirm: {
    method: 'POST',
    path: '/session/confirm',
    body: ConfirmBody,
    responses: statuses({
      200: single(z.object({ confirmed_until: UtcInstant })),
      ...dashboardErrors,
      ...dashboardBodyErrors,
      401: failure(
        '`Not signed in`, or `Invalid password` (the session stays; failures count towards throttling)',
        NotSignedInErrorBody,
        InvalidPasswordErrorBody,
      ),
      403: forbidden,
    }),
    summary: 'Confirm the password: key reveal, key regenerate and secret rotation are allowed for 5 minutes',
  },
  changePassword: {
    method: 'POST',
    path: '/session/password',
    body: ChangePasswordBody,
    responses: statuses({
      200: single(z.object({ sessions_ended: z.number().int().nonnegative().describe('Other sessions ended') })),
      ...dashboardErrors,
      ...dashboardBodyErrors,
      401: failure(
        '`Not signed in`, or `Invalid password` for the current password (failures count towards throttling)',
        NotSignedInErrorBody,
        InvalidPasswordErrorBody,
      ),
      403: forbidden,
    }),
    summary: 'Change the password: every other session of the person ends at once; this one stays',
  },
  sessions: {
    method: 'GET',
    path: '/session/sessions',
    responses: statuses({ 200: z.object({ data: z.array(SessionInfo) }), ...dashboardErrors }),
    summary: 'The live sessions of the signed-in person, the latest first',
  },
  endSession: {
    method: 'DELETE',
    path: '/session/sessions/:id',
    pathParams: SessionPath,
    body: c.noBody(),
    responses: statuses({
      204: c.noBody(),
      ...dashboardErrors,
      403: forbidden,
      404: failure('`Session not found` among your live sessions', SessionNotFoundErrorBody),
    }),
    summary: 'End one of your sessions (another browser); ending this one is signing out',
  },
  signOutEverywhere: {
    method: 'DELETE',
    path: '/session/sessions',
    body: c.noBody(),
    responses: statuses({ 204: c.noBody(), ...dashboardErrors, 403: forbidden }),
    summary: 'Sign out everywhere: every session of the person ends, this one included',
  },
});
