import type { Role } from '@spa/contract/dashboard';
import type { Request, Response } from 'express';
import type { Temporal } from 'temporal-polyfill';
import type { AuditActor } from '../audit/record-audit.js';

/** The person a dashboard request acts for, loaded from their session; never the session token itself. */
export interface DashboardActor {
  personId: string;
  email: string;
  organisationId: string;
  role: Role;
  /** The venues a desk person is listed for; empty for an admin, who sees every venue of the organisation. */
  venueIds: readonly string[];
  sessionId: string;
  /** The session's CSRF token, compared with X-CSRF-Token on state-changing requests. */
  csrfToken: string;
  /** When the password was last confirmed in this session (sign-in counts), or null. */
  confirmedAt: Temporal.Instant | null;
  /** When the session ends unless used again: the sooner of its idle and absolute expiry. */
  expiresAt: Temporal.Instant;
}

/** Where a request came from, as the audit log records it. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

export function actorOf(res: Response): DashboardActor {
  const actor = res.locals.dashboardActor as DashboardActor | undefined;
  if (!actor) throw new Error('Dashboard route reached without a session');
  return actor;
}

export function setActor(res: Response, actor: DashboardActor): void {
  res.locals.dashboardActor = actor;
}

/** The client address (Express's req.ip honours the app's trust proxy setting) and user agent, for the audit log. */
export function requestOriginOf(req: Request): RequestOrigin {
  const userAgent = req.get('user-agent');
  return { ip: req.ip ?? null, userAgent: userAgent ? userAgent.slice(0, 512) : null };
}

/** The actor as the audit log names them. */
export function auditActorOf(actor: DashboardActor): AuditActor {
  return { type: 'person', personId: actor.personId, email: actor.email };
}
