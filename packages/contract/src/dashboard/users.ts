import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { page, PaginationQuery, single, UtcInstant, Uuid, VenueRef } from '../common.js';
import { failure } from '../errors.js';
import {
  CannotChangeOwnAccessErrorBody,
  CannotRemoveSelfErrorBody,
  InvitationNotFoundErrorBody,
  dashboardBodyErrors,
  dashboardErrors,
  DashboardVenueNotFoundErrorBody,
  EmailTakenErrorBody,
  forbidden,
  UserNotFoundErrorBody,
} from './errors.js';
import { DashboardVenueSummary, Email, Role, User } from './people.js';
import { statuses } from '../statuses.js';

const c = initContract();

export const UserPath = z.object({ id: Uuid });

export const InviteBody = z
  .object({
    email: Email,
    role: Role,
    venues: z
      .array(VenueRef)
      .max(100, 'must list at most 100 venues')
      .default([])
      .describe('Venue UUIDs or slugs a desk person sees (at least one); none for an admin'),
  })
  .superRefine((body, ctx) => {
    if (body.role === 'desk' && body.venues.length === 0)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['venues'], message: 'must list at least one venue for desk' });
    if (body.role === 'admin' && body.venues.length > 0)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['venues'],
        message: 'must be empty for admin, who sees every venue',
      });
  });

/** A change of a person's access (admin): a role, and for desk the venues they see. */
export const UpdateUserBody = z
  .object({
    role: Role,
    venues: z
      .array(VenueRef)
      .max(100, 'must list at most 100 venues')
      .default([])
      .describe('Venue UUIDs or slugs a desk person sees (at least one); none for an admin'),
  })
  .superRefine((body, ctx) => {
    if (body.role === 'desk' && body.venues.length === 0)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['venues'], message: 'must list at least one venue for desk' });
    if (body.role === 'admin' && body.venues.length > 0)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['venues'],
        message: 'must be empty for admin, who sees every venue',
      });
  });

/** An invitation not yet accepted and still valid, without its URL (only its sender saw that, once). */
export const PendingInvitation = z.object({
  id: Uuid,
  email: z.string(),
  role: Role,
  venues: z.array(DashboardVenueSummary),
  invited_by: z.string().nullable().describe("The inviter's email; null for the operator CLI"),
  created_at: UtcInstant,
  expires_at: UtcInstant,
});

export const InvitationIdPath = z.object({ id: Uuid });

/** An invitation as its sender sees it: the URL to pass on (single use, valid 72 hours). */
export const SentInvitation = z.object({
  id: Uuid,
  email: z.string(),
  role: Role,
  venues: z.array(DashboardVenueSummary),
  expires_at: UtcInstant,
  url: z.string().describe('{PUBLIC_URL}/dashboard/invitations/{token}: shown once, pass it to the person'),
});

export const usersContract = c.router({
  list: {
    method: 'GET',
    path: '/users',
    query: PaginationQuery,
    responses: statuses({ 200: page(User), ...dashboardErrors, 403: forbidden }),
    summary: 'People of the organisation, by email (admin)',
  },
  invite: {
    method: 'POST',
    path: '/users',
    body: InviteBody,
    responses: statuses({
      201: single(SentInvitation),
      ...dashboardErrors,
      ...dashboardBodyErrors,
      403: forbidden,
      404: failure(
        '`Venue not found`: no venue of your organisation has this UUID or slug',
        DashboardVenueNotFoundErrorBody,
      ),
      409: failure('`A person with this email already exists` in your organisation', EmailTakenErrorBody),
    }),
    summary: 'Invite a person (admin); an earlier pending invitation of the same email stops working',
    description:
      'The answer is the same whether or not the email has an account in another organisation: that person ' +
      'learns it when they open the link.',
  },
  remove: {
    method: 'DELETE',
    path: '/users/:id',
    pathParams: UserPath,
    body: c.noBody(),
    responses: statuses({
      204: c.noBody(),
      ...dashboardErrors,
      403: forbidden,
      404: failure('`User not found` in your organisation', UserNotFoundErrorBody),
      409: failure('`You cannot remove yourself`', CannotRemoveSelfErrorBody),
    }),
    summary: 'Remove a person (admin): their sessions end at once',
  },
  update: {
    method: 'PATCH',
    path: '/users/:id',
    pathParams: UserPath,
    body: UpdateUserBody,
    responses: statuses({
      200: single(User),
      ...dashboardErrors,
      ...dashboardBodyErrors,
      403: forbidden,
      404: failure(
        '`User not found` in your organisation, or `Venue not found`',
        UserNotFoundErrorBody,
        DashboardVenueNotFoundErrorBody,
      ),
      409: failure('`You cannot change your own role or venues`', CannotChangeOwnAccessErrorBody),
    }),
    summary: "Change a person's role and venues (admin): their open sessions see the change at their next request",
  },
  invitations: {
    method: 'GET',
    path: '/pending-invitations',
    query: PaginationQuery,
    responses: statuses({ 200: page(PendingInvitation), ...dashboardErrors, 403: forbidden }),
    summary: 'Invitations not yet accepted and still valid, newest first (admin)',
  },
  revokeInvitation: {
    method: 'DELETE',
    path: '/pending-invitations/:id',
    pathParams: InvitationIdPath,
    body: c.noBody(),
    responses: statuses({
      204: c.noBody(),
      ...dashboardErrors,
      403: forbidden,
      404: failure('`Invitation not found` among your pending invitations', InvitationNotFoundErrorBody),
    }),
    summary: 'Revoke a pending invitation (admin): its link stops working at once',
  },
});
