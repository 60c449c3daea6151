import { contract } from '@spa/contract';
import { initServer } from '@ts-rest/express';
import type { RouteDeps } from '../app-deps.js';
import { principalOf } from '../auth/principal.js';
import { paginated, pageWindow } from '../http/pagination.js';
import { resolveVenue } from './venue-access.js';
import { toVenueDetail, toVenueSummary } from './venue.mapper.js';
import { listVenues } from './venues.repository.js';

export function venuesRouter({ reads }: RouteDeps) {
  return initServer().router(contract.venues, {
    list: async ({ query, res }) => {
      const principal = principalOf(res);
      const { rows, total } = await reads.read((db) => listVenues(db, principal, pageWindow(query)));
      return { status: 200, body: paginated(rows.map(toVenueSummary), query, total) };
    },
    get: async ({ params, res }) => {
      const venue = await reads.read((db) => resolveVenue(db, principalOf(res), params.venue_id));
      return { status: 200, body: { data: toVenueDetail(venue) } };
    },
  });
}
