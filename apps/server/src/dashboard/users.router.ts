import { DashboardErrorText, dashboardContract } from '@spa/contract/dashboard';
import { initServer } from '@ts-rest/express';
import { notFound } from '../errors/dashboard-errors.js';
import { pageWindow, paginated } from '../http/pagination.js';
import { actorOf, auditActorOf, requestOriginOf } from './dashboard-actor.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { dashboardOriginOf } from './dashboard-origin.js';
import { requireRole } from './guards.js';
import { resolveVenueRefs } from './people.repository.js';
import {
  invitePerson,
  listPendingInvitations,
  listUsers,
  removePerson,
  revokeInvitation,
  updateAccess,
} from './people.service.js';

export function usersRouter(deps: DashboardDeps) {
  const { db, clock } = deps;
  const adminOnly = [requireRole('admin')];
  return initServer().router(dashboardContract.users, {
    list: {
      middleware: adminOnly,
      handler: async ({ query, res }) => {
        const { users, total } = await listUsers(db, actorOf(res).organisationId, pageWindow(query));
        return { status: 200, body: paginated(users, query, total) };
      },
    },
    invite: {
      middleware: adminOnly,
      handler: async ({ body, req, res }) => {
        const actor = actorOf(res);
        const venues = await resolveVenueRefs(db, actor.organisationId, body.venues);
        if (venues.missing.length) throw notFound(DashboardErrorText.VenueNotFound);
        const { elsewhere: _told, ...invitation } = await invitePerson(db, {
          organisationId: actor.organisationId,
          email: body.email,
          role: body.role,
          venueIds: venues.ids,
          actor: auditActorOf(actor),
          origin: requestOriginOf(req),
          // The link opens the dashboard where the admin has it open, unless PUBLIC_URL says where it lives.
          publicUrl: dashboardOriginOf(deps, req) ?? deps.publicUrl,
          now: clock.now(),
        });
        return { status: 201, body: { data: invitation } };
      },
    },
    update: {
      middleware: adminOnly,
      handler: async ({ params, body, req, res }) => {
        const actor = actorOf(res);
        const venues = await resolveVenueRefs(db, actor.organisationId, body.venues);
        if (venues.missing.length) throw notFound(DashboardErrorText.VenueNotFound);
        const user = await updateAccess(db, {
          organisationId: actor.organisationId,
          personId: params.id,
          role: body.role,
          venueIds: venues.ids,
          actor: auditActorOf(actor),
          origin: requestOriginOf(req),
          now: clock.now(),
        });
        return { status: 200, body: { data: user } };
      },
    },
    invitations: {
      middleware: adminOnly,
      handler: async ({ query, res }) => {
        const { invitations, total } = await listPendingInvitations(
          db,
          actorOf(res).organisationId,
          clock.now(),
          pageWindow(query),
        );
        return { status: 200, body: paginated(invitations, query, total) };
      },
    },
    revokeInvitation: {
      middleware: adminOnly,
      handler: async ({ params, req, res }) => {
        const actor = actorOf(res);
        await revokeInvitation(db, {
          organisationId: actor.organisationId,
          invitationId: params.id,
          actor: auditActorOf(actor),
          origin: requestOriginOf(req),
          now: clock.now(),
        });
        return { status: 204, body: undefined };
      },
    },
    remove: {
      middleware: adminOnly,
      handler: async ({ params, req, res }) => {
        const actor = actorOf(res);
        await removePerson(db, {
          organisationId: actor.organisationId,
          personId: params.id,
          actor: auditActorOf(actor),
          origin: requestOriginOf(req),
          now: clock.now(),
        });
        return { status: 204, body: undefined };
      },
    },
  });
}
