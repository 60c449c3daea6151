import { dashboardContract } from '@spa/contract/dashboard';
import { initServer } from '@ts-rest/express';
import { listAuditEvents } from '../audit/audit-events.repository.js';
import { pageWindow, paginated } from '../http/pagination.js';
import { actorOf } from './dashboard-actor.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { requireRole } from './guards.js';

export function auditEventsRouter({ db }: DashboardDeps) {
  return initServer().router(dashboardContract.auditEvents, {
    list: {
      middleware: [requireRole('admin')],
      handler: async ({ query, res }) => {
        const { events, total } = await listAuditEvents(db, actorOf(res).organisationId, pageWindow(query));
        return { status: 200, body: paginated(events, query, total) };
      },
    },
  });
}
