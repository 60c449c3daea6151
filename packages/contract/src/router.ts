import { initContract } from '@ts-rest/core';
import { availabilityContract } from './availability.js';
import { bookingsContract } from './bookings.js';
import { customersContract } from './customers.js';
import { eventsContract } from './events.js';
import { testHelpersContract } from './test-helpers.js';
import { treatmentsContract } from './treatments.js';
import { venuesContract } from './venues.js';

const c = initContract();

/** The whole partner API. Scopes and preview flags ride on each route's metadata. */
export const contract = c.router(
  {
    venues: venuesContract,
    treatments: treatmentsContract,
    customers: customersContract,
    availability: availabilityContract,
    bookings: bookingsContract,
    events: eventsContract,
    testHelpers: testHelpersContract,
  },
  { pathPrefix: '/v1', strictStatusCodes: true },
);

export type Contract = typeof contract;
