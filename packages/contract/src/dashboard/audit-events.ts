import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { page, PaginationQuery, UtcInstant, Uuid } from '../common.js';
import { dashboardErrors, forbidden } from './errors.js';
import { statuses } from '../statuses.js';

const c = initContract();

/** Every action the audit log records: a closed list, so the writer cannot invent one. */
export const AUDIT_ACTIONS = [
  'session.signed_in',
  'session.sign_in_failed',
  'session.signed_out',
  'session.sign_in_throttled',
  'session.confirmation_failed',
  'session.password_changed',
  'session.ended',
  'session.signed_out_everywhere',
  'invitation.accepted',
  'key.revealed',
  'key.regenerated',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.disabled',
  'webhook_endpoint.enabled',
  'webhook_endpoint.removed',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.tested',
  'webhook_delivery.replayed',
  'person.invited',
  'person.removed',
  'person.updated',
  'invitation.revoked',
  'booking.acceptance_recorded',
  'booking.completion_recorded',
  'booking.no_show_recorded',
  'booking.cancelled',
  'booking.rescheduled',
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

export const AUDIT_TARGET_TYPES = [
  'person',
  'session',
  'invitation',
  'api_key',
  'webhook_endpoint',
  'webhook_event',
  'booking',
] as const;
export const AuditTargetType = z.enum(AUDIT_TARGET_TYPES);
export type AuditTargetType = z.infer<typeof AuditTargetType>;

export const AuditActor = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('person'),
    id: Uuid,
    email: z.string().describe('As it was at the time; the person may have been removed since'),
  }),
  z.object({ type: z.literal('operator').describe('The operator CLI') }),
  z.object({
    type: z.literal('api_key'),
    key_id: z.string().describe("The id of the partner's API key the change came through"),
  }),
]);

export const AuditEvent = z.object({
  id: Uuid,
  actor: AuditActor,
  action: AuditAction,
  target: z
    .object({
      type: AuditTargetType,
      id: z.string(),
      label: z
        .string()
        .nullable()
        .describe("What it was called at the time: a person's email, an endpoint's URL, #booking number"),
    })
    .nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: UtcInstant,
});

export const auditEventsContract = c.router({
  list: {
    method: 'GET',
    path: '/audit-events',
    query: PaginationQuery,
    responses: statuses({ 200: page(AuditEvent), ...dashboardErrors, 403: forbidden }),
    summary: 'The audit log of the organisation, newest first (admin)',
  },
});
