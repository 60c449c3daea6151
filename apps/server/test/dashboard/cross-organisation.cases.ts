import type { dashboardClientOf } from '../support/typed-api.js';
import type { makeResourcefulOrganisation } from './resources-support.js';

/** Two organisations, A (who asks) and B (whose records are asked for), each with people and resources. */
export type World = {
  a: Awaited<ReturnType<typeof makeResourcefulOrganisation>>;
  b: Awaited<ReturnType<typeof makeResourcefulOrganisation>>;
};

/** The dashboard API's typed client, signed in as A's admin (support/typed-api.ts). */
type Client = ReturnType<ReturnType<typeof dashboardClientOf>>;

/**
 * One route of the dashboard given an id of organisation B, as A's admin calls it through the contract's client:
 * it must answer 404 with the route's text and change nothing of B's. Each area adds its routes here: the table
 * is the list of every dashboard route that takes an id (ids of B's people, endpoints, events, bookings...).
 */
export interface CrossOrganisationCase {
  route: string;
  call(client: Client, world: World): Promise<{ status: number; body: unknown }>;
  notFound: string;
}

export const CROSS_ORGANISATION_CASES: CrossOrganisationCase[] = [
  {
    route: 'DELETE /users/{id}',
    call: (api, { b }) => api.users.remove({ params: { id: b.desk.id } }),
    notFound: 'User not found',
  },
  {
    route: 'POST /users (a venue of B)',
    call: (api, { b }) =>
      api.users.invite({ body: { email: 'someone@example.com', role: 'desk', venues: [b.venue.id] } }),
    notFound: 'Venue not found',
  },
  {
    route: 'GET /bookings/{id}',
    call: (api, { b }) => api.bookings.get({ params: { id: b.resources.booking.id } }),
    notFound: 'Booking not found',
  },
  {
    route: 'GET /bookings?venue= (a venue of B)',
    call: (api, { b }) => api.bookings.list({ query: { venue: b.venue.id } }),
    notFound: 'Venue not found',
  },
  {
    route: 'POST /bookings/{id}/accept',
    call: (api, { b }) =>
      api.bookings.accept({
        params: { id: b.resources.booking.id },
        body: { therapist_id: b.resources.therapist.id },
      }),
    notFound: 'Booking not found',
  },
  {
    route: 'POST /bookings/{id}/complete',
    call: (api, { b }) => api.bookings.complete({ params: { id: b.resources.booking.id } }),
    notFound: 'Booking not found',
  },
  {
    route: 'POST /bookings/{id}/no-show',
    call: (api, { b }) => api.bookings.noShow({ params: { id: b.resources.booking.id } }),
    notFound: 'Booking not found',
  },
  {
    route: 'POST /webhook-endpoints (a venue of B)',
    call: (api, { b }) =>
      api.webhookEndpoints.create({ body: { url: 'https://hooks.example.com/a', venue_id: b.venue.id } }),
    notFound: 'Venue not found',
  },
  {
    route: 'DELETE /webhook-endpoints/{id}',
    call: (api, { b }) => api.webhookEndpoints.remove({ params: { id: b.resources.endpoint.id } }),
    notFound: 'Webhook endpoint not found',
  },
  {
    route: 'POST /webhook-endpoints/{id}/rotate-secret',
    call: (api, { b }) => api.webhookEndpoints.rotateSecret({ params: { id: b.resources.endpoint.id } }),
    notFound: 'Webhook endpoint not found',
  },
  {
    route: 'POST /webhook-endpoints/{id}/test',
    call: (api, { b }) => api.webhookEndpoints.test({ params: { id: b.resources.endpoint.id }, body: {} }),
    notFound: 'Webhook endpoint not found',
  },
  {
    route: 'POST /webhook-deliveries/{event_id}/replay',
    call: (api, { b }) => api.webhookDeliveries.replay({ params: { event_id: b.resources.event.id }, body: {} }),
    notFound: 'Webhook event not found',
  },
];
