import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { single, UtcInstant } from '../common.js';
import {
  failure,
  InternalServerErrorBody,
  RateLimitErrorBody,
  ServiceUnavailableErrorBody,
  ValidationErrorBody,
} from '../errors.js';
import { dashboardBodyErrors, EmailTakenErrorBody, forbidden, InvitationNotFoundErrorBody } from './errors.js';
import { NewPassword, OrganisationSummary, Role, User } from './people.js';
import { statuses } from '../statuses.js';

const c = initContract();

export const InvitationPath = z.object({
  token: z.string().min(1).max(200).describe('The token of the invitation URL'),
});

export const Invitation = z.object({
  organisation: OrganisationSummary.pick({ slug: true, name: true }),
  email: z.string(),
  role: Role,
  expires_at: UtcInstant,
});

export const AcceptInvitationBody = z.object({ password: NewPassword });

/** Errors of the routes reached without a session: no 401. */
const openErrors = {
  400: failure('Bad request: `error` names the first bad field; `details` lists every problem', ValidationErrorBody),
  429: failure('Rate limit exceeded; wait for Retry-After seconds', RateLimitErrorBody),
  500: failure('Internal server error: quote request_id to support', InternalServerErrorBody),
  503: failure('The database cannot be reached; retry after Retry-After seconds', ServiceUnavailableErrorBody),
} as const;

const notFound = failure(
  '`Invitation not found`: unknown, already used or past its 72 hours (one answer for all three)',
  InvitationNotFoundErrorBody,
);

export const invitationsContract = c.router({
  get: {
    method: 'GET',
    path: '/invitations/:token',
    pathParams: InvitationPath,
    responses: statuses({ 200: single(Invitation), ...openErrors, 404: notFound }),
    summary: 'Read an invitation before choosing a password',
  },
  accept: {
    method: 'POST',
    path: '/invitations/:token/accept',
    pathParams: InvitationPath,
    body: AcceptInvitationBody,
    responses: statuses({
      201: single(User),
      ...openErrors,
      ...dashboardBodyErrors,
      403: forbidden,
      404: notFound,
      409: failure('`A person with this email already exists`', EmailTakenErrorBody),
    }),
    summary: 'Accept an invitation with a password (12 to 256 characters); then sign in',
    description: 'Needs no session or CSRF token, but the Origin must be the dashboard. The invitation is used up.',
  },
});
