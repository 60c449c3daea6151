import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { single, UtcInstant, Uuid } from '../common.js';
import {
  dashboardBodyErrors,
  dashboardErrors,
  forbidden,
  InvalidCredentialsErrorBody,
  InvalidPasswordErrorBody,
  NotSignedInErrorBody,
} from './errors.js';
import { failure } from '../errors.js';
import { DashboardVenue, Email, OrganisationSummary, PasswordAttempt, Role } from './people.js';
import { statuses } from '../statuses.js';

const c = initContract();

export const SignInBody = z.object({ email: Email, password: PasswordAttempt });
export const ConfirmBody = z.object({ password: PasswordAttempt });

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
      'must be the dashboard. 5 failures for one email in 15 minutes, or 50 from one address, answer 429.',
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
});
