import { DashboardErrorText, dashboardContract } from '@spa/contract/dashboard';
import { initServer } from '@ts-rest/express';
import { notFound } from '../errors/dashboard-errors.js';
import { pageWindow, paginated } from '../http/pagination.js';
import { actorOf, auditActorOf, requestOriginOf } from './dashboard-actor.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { requireRole } from './guards.js';
import { resolveVenueRefs } from './people.repository.js';
import { invitePerson, listUsers, removePerson } from './people.service.js';

export function usersRouter({ db, clock, publicUrl }: DashboardDeps) {
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
        const invitation = await invitePerson(db, {
          organisationId: actor.organisationId,
          email: body.email,
          role: body.role,
          venueIds: venues.ids,
          actor: auditActorOf(actor),
          origin: requestOriginOf(req),
          publicUrl,
          now: clock.now(),
        });
        return { status: 201, body: { data: invitation } };
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
