import type { Request, Response } from 'express';
import { type AuditTrail, auditTrailOf } from '../audit/audit-trail.js';
import type { OrganisationScope } from '../auth/organisation-scope.js';
import type { Clock } from '../lib/clock.js';
import { actorOf, auditActorOf, requestOriginOf } from './dashboard-actor.js';
import { livemodeOf } from './dashboard-mode.js';
import { visibleVenueIds } from './guards.js';

/** What the signed-in person may see: their organisation, and their listed venues when desk. */
export function scopeOf(res: Response): OrganisationScope {
  const actor = actorOf(res);
  return { organisationId: actor.organisationId, venueIds: visibleVenueIds(actor), livemode: livemodeOf(res) };
}

/** The audit trail of this request: the signed-in person, their address and user agent. */
export function trailOf(req: Request, res: Response, clock: Clock): AuditTrail {
  return auditTrailOf({ actor: auditActorOf(actorOf(res)), ...requestOriginOf(req) }, clock);
}
