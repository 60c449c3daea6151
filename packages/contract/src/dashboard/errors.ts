import { z } from 'zod';
import {
  bodyErrors,
  ErrorBody,
  ErrorText,
  failure,
  InternalServerErrorBody,
  RateLimitErrorBody,
  ServiceUnavailableErrorBody,
  ValidationErrorBody,
} from '../errors.js';

/**
 * The dashboard's fixed `error` texts, spelled once. The dashboard answers in the partner API's error shape
 * (`{ error, request_id }`, a 400 with `details`); `Forbidden` and `Invalid email or password` and
 * `Recent sign-in required` are fixed by the interface, the others are the dashboard's own.
 */
export const DashboardErrorText = {
  InvalidCredentials: 'Invalid email or password',
  InvalidPassword: 'Invalid password',
  NotSignedIn: 'Not signed in',
  Forbidden: ErrorText.Forbidden,
  RecentSignInRequired: 'Recent sign-in required',
  InvitationNotFound: 'Invitation not found',
  EmailTaken: 'A person with this email already exists',
  UserNotFound: 'User not found',
  CannotRemoveSelf: 'You cannot remove yourself',
  CannotChangeOwnAccess: 'You cannot change your own role or venues',
  SessionNotFound: 'Session not found',
  KeyNotFound: 'Key not found',
  VenueNotFound: ErrorText.VenueNotFound,
  WebhookEndpointNotFound: 'Webhook endpoint not found',
  WebhookEventNotFound: 'Webhook event not found',
  TooManyWebhookEndpoints: 'An organisation has at most 10 webhook endpoints; remove one first',
  BookingNotFound: ErrorText.NoSuchBooking,
  RateLimitExceeded: ErrorText.RateLimitExceeded,
} as const;

function fixed<const T extends [string, ...string[]]>(texts: T) {
  return ErrorBody.extend({ error: z.enum(texts) });
}

/** Why a session ended for its holder, when it was ended rather than left to expire. */
export const SessionEndReason = z.enum(['removed', 'password_changed', 'signed_out_everywhere']);

export const NotSignedInErrorBody = fixed([DashboardErrorText.NotSignedIn]).extend({
  reason: SessionEndReason.optional().describe(
    'Why the session of this cookie ended, when it was ended: removed from the organisation, password changed, ' +
      'signed out everywhere. Absent when there was no session or it expired.',
  ),
});
export const InvalidCredentialsErrorBody = fixed([DashboardErrorText.InvalidCredentials]);
export const InvalidPasswordErrorBody = fixed([DashboardErrorText.InvalidPassword]);
export const DashboardForbiddenErrorBody = fixed([DashboardErrorText.Forbidden]).extend({
  hint: z
    .string()
    .optional()
    .describe('When the Origin was refused: the address the dashboard answers at, and what to set or open instead'),
});
export const RecentSignInRequiredErrorBody = fixed([DashboardErrorText.RecentSignInRequired]);
export const InvitationNotFoundErrorBody = fixed([DashboardErrorText.InvitationNotFound]);
export const EmailTakenErrorBody = fixed([DashboardErrorText.EmailTaken]);
export const UserNotFoundErrorBody = fixed([DashboardErrorText.UserNotFound]);
export const CannotRemoveSelfErrorBody = fixed([DashboardErrorText.CannotRemoveSelf]);
export const CannotChangeOwnAccessErrorBody = fixed([DashboardErrorText.CannotChangeOwnAccess]);
export const SessionNotFoundErrorBody = fixed([DashboardErrorText.SessionNotFound]);
export const KeyNotFoundErrorBody = fixed([DashboardErrorText.KeyNotFound]);
export const DashboardVenueNotFoundErrorBody = fixed([DashboardErrorText.VenueNotFound]);
export const WebhookEndpointNotFoundErrorBody = fixed([DashboardErrorText.WebhookEndpointNotFound]);
export const WebhookEventNotFoundErrorBody = fixed([DashboardErrorText.WebhookEventNotFound]);
export const TooManyWebhookEndpointsErrorBody = fixed([DashboardErrorText.TooManyWebhookEndpoints]);
export const DashboardBookingNotFoundErrorBody = fixed([DashboardErrorText.BookingNotFound]);

/**
 * What kind of refusal a sentence tells, so the web app can say it in the reader's language: `not_started`
 * (complete or no-show before the start), `status` (the booking's status forbids the change), `unsafe_url`,
 * `disabled` (an endpoint that receives nothing), `other`.
 */
export const RefusalCode = z.enum(['not_started', 'status', 'unsafe_url', 'disabled', 'other']);

/** A refusal told in one sentence (an unsafe webhook URL, a booking in a status that cannot take the change). */
export const SentenceErrorBody = ErrorBody.extend({
  error: z.string().describe('One sentence saying what is wrong and what to do'),
  code: RefusalCode.optional(),
});

/** What every dashboard route can answer: a bad request, no session, throttling, a fault, an unreachable database. */
export const dashboardErrors = {
  400: failure('Bad request: `error` names the first bad field; `details` lists every problem', ValidationErrorBody),
  401: failure(
    '`Not signed in`: no session cookie, or the session ended (signed out, idle, too old)',
    NotSignedInErrorBody,
  ),
  429: failure('Rate limit exceeded; wait for Retry-After seconds', RateLimitErrorBody),
  500: failure('Internal server error: quote request_id to support', InternalServerErrorBody),
  503: failure('The database cannot be reached; retry after Retry-After seconds', ServiceUnavailableErrorBody),
} as const;

/** Routes that take a JSON body also answer the body errors of the partner API (408, 413, 415). */
export const dashboardBodyErrors = bodyErrors;

/** 403 of a state-changing route: the CSRF token or the Origin is missing or wrong, or the role may not do it. */
export const forbidden = failure(
  '`Forbidden`: no or a wrong X-CSRF-Token, an Origin other than the dashboard, or a role that may not do this',
  DashboardForbiddenErrorBody,
);

/** 403 of a route that needs the password confirmed within the last 5 minutes (POST /session/confirm). */
export const forbiddenOrUnconfirmed = failure(
  '`Forbidden` (CSRF token, Origin or role), or `Recent sign-in required`: confirm the password first',
  DashboardForbiddenErrorBody,
  RecentSignInRequiredErrorBody,
);
