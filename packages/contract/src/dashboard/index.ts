import { initContract } from '@ts-rest/core';
import { auditEventsContract } from './audit-events.js';
import { dashboardBookingsContract } from './bookings.js';
import { invitationsContract } from './invitations.js';
import { keyContract } from './key.js';
import { sessionContract } from './session.js';
import { usersContract } from './users.js';
import { webhookDeliveriesContract } from './webhook-deliveries.js';
import { webhookEndpointsContract } from './webhook-endpoints.js';

export * from './errors.js';
export * from './people.js';
export * from './session.js';
export * from './invitations.js';
export * from './key.js';
export * from './webhook-endpoints.js';
export * from './webhook-deliveries.js';
export * from './bookings.js';
export * from './users.js';
export * from './audit-events.js';

const c = initContract();

/**
 * The dashboard's JSON API (cookie session, never an API key). Apart from the partner contract: not in the
 * OpenAPI document, not in the SDK. Each area is its own router, so the server mounts each one separately.
 */
export const dashboardContract = c.router(
  {
    session: sessionContract,
    invitations: invitationsContract,
    key: keyContract,
    webhookEndpoints: webhookEndpointsContract,
    webhookDeliveries: webhookDeliveriesContract,
    bookings: dashboardBookingsContract,
    users: usersContract,
    auditEvents: auditEventsContract,
  },
  { pathPrefix: '/dashboard/api', strictStatusCodes: true },
);

export type DashboardContract = typeof dashboardContract;
