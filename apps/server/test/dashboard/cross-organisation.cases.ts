import type { Dashboard, Session } from './dashboard-support.js';
import type { makeResourcefulOrganisation } from './resources-support.js';

/** Two organisations, A (who asks) and B (whose records are asked for), each with people and resources. */
export type World = {
  a: Awaited<ReturnType<typeof makeResourcefulOrganisation>>;
  b: Awaited<ReturnType<typeof makeResourcefulOrganisation>>;
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
  {
    route: 'GET /bookings/{id}',
    call: (dash, session, { b }) => dash.get(`/bookings/${b.resources.booking.id}`, session),
    notFound: 'Booking not found',
  },
  {
    route: 'GET /bookings?venue= (a venue of B)',
    call: (dash, session, { b }) => dash.get(`/bookings?venue=${b.venue.id}`, session),
    notFound: 'Venue not found',
  },
  {
    route: 'POST /bookings/{id}/accept',
    call: (dash, session, { b }) =>
      dash.post(`/bookings/${b.resources.booking.id}/accept`, { therapist_id: b.resources.therapist.id }, session),
    notFound: 'Booking not found',
  },
  {
    route: 'POST /bookings/{id}/complete',
    call: (dash, session, { b }) => dash.post(`/bookings/${b.resources.booking.id}/complete`, undefined, session),
    notFound: 'Booking not found',
  },
  {
    route: 'POST /bookings/{id}/no-show',
    call: (dash, session, { b }) => dash.post(`/bookings/${b.resources.booking.id}/no-show`, undefined, session),
    notFound: 'Booking not found',
  },
  {
    route: 'POST /webhook-endpoints (a venue of B)',
    call: (dash, session, { b }) =>
      dash.post('/webhook-endpoints', { url: 'https://hooks.example.com/a', venue_id: b.venue.id }, session),
    notFound: 'Venue not found',
  },
  {
    route: 'DELETE /webhook-endpoints/{id}',
    call: (dash, session, { b }) => dash.delete(`/webhook-endpoints/${b.resources.endpoint.id}`, session),
    notFound: 'Webhook endpoint not found',
  },
  {
    route: 'POST /webhook-endpoints/{id}/rotate-secret',
    call: (dash, session, { b }) =>
      dash.post(`/webhook-endpoints/${b.resources.endpoint.id}/rotate-secret`, undefined, session),
    notFound: 'Webhook endpoint not found',
  },
  {
    route: 'POST /webhook-endpoints/{id}/test',
    call: (dash, session, { b }) => dash.post(`/webhook-endpoints/${b.resources.endpoint.id}/test`, undefined, session),
    notFound: 'Webhook endpoint not found',
  },
  {
    route: 'POST /webhook-deliveries/{event_id}/replay',
    call: (dash, session, { b }) => dash.post(`/webhook-deliveries/${b.resources.event.id}/replay`, undefined, session),
    notFound: 'Webhook event not found',
  },
];
