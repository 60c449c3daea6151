import type { Dashboard, makeDashboardOrganisation, Session } from './dashboard-support.js';

/** Two organisations, A (who asks) and B (whose records are asked for). */
export type World = {
  a: Awaited<ReturnType<typeof makeDashboardOrganisation>>;
  b: Awaited<ReturnType<typeof makeDashboardOrganisation>>;
};

/**
 * One route of the dashboard given an id of organisation B, as A's admin calls it: it must answer 404 with the
 * route's text and change nothing of B's. Each area adds its routes here: the table is the list of every
 * dashboard route that takes an id (ids of B's people, endpoints, events, bookings...).
 */
export interface CrossOrganisationCase {
  route: string;
  call(dash: Dashboard, session: Session, world: World): PromiseLike<{ status: number; body: unknown }>;
  notFound: string;
}

export const CROSS_ORGANISATION_CASES: CrossOrganisationCase[] = [
  {
    route: 'DELETE /users/{id}',
    call: (dash, session, { b }) => dash.delete(`/users/${b.desk.id}`, session),
    notFound: 'User not found',
  },
  {
    route: 'POST /users (a venue of B)',
    call: (dash, session, { b }) =>
      dash.post('/users', { email: 'someone@example.com', role: 'desk', venues: [b.venue.id] }, session),
    notFound: 'Venue not found',
  },
];
