import { dashboardContract } from '@spa/contract/dashboard';
import { initServer } from '@ts-rest/express';
import { isoFromDb } from '../lib/instant.js';
import { requestOriginOf } from './dashboard-actor.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { acceptInvitation, readInvitation } from './people.service.js';

export function invitationsRouter({ db, clock }: DashboardDeps) {
  return initServer().router(dashboardContract.invitations, {
    get: async ({ params }) => {
      const invitation = await readInvitation(db, params.token, clock.now());
      return {
        status: 200,
        body: {
          data: {
            organisation: { slug: invitation.organisation_slug, name: invitation.organisation_name },
            email: invitation.email,
            role: invitation.role,
            expires_at: isoFromDb(invitation.expires_at),
          },
        },
      };
    },
    accept: async ({ params, body, req }) => {
      const user = await acceptInvitation(db, {
        token: params.token,
        password: body.password,
        origin: requestOriginOf(req),
        now: clock.now(),
      });
      return { status: 201, body: { data: user } };
    },
  });
}
