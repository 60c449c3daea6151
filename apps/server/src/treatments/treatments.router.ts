import { contract } from '@spa/contract';
import { initServer } from '@ts-rest/express';
import type { RouteDeps } from '../app-deps.js';
import { principalOf } from '../auth/principal.js';
import { toMoney } from '../lib/money.js';
import { resolveVenue } from '../venues/venue-access.js';
import { listTreatments } from './treatments.repository.js';

export function treatmentsRouter({ reads }: RouteDeps) {
  return initServer().router(contract.treatments, {
    list: async ({ params, res }) => {
      // Both on one database: a replica's venue and the primary's treatments could disagree.
      const { treatments, variants } = await reads.read(async (db) => {
        const venue = await resolveVenue(db, principalOf(res), params.venue_id);
        return listTreatments(db, venue.id);
      });
      const data = treatments.map((t) => ({
        ...t,
        variants: variants
          .filter((v) => v.treatment_id === t.id)
          .map((v) => ({
            id: v.id,
            name: v.name,
            duration_minutes: v.duration_minutes,
            price: toMoney(v.price_minor, v.currency),
            is_default: v.is_default,
          })),
      }));
      return { status: 200, body: { data } };
    },
  });
}
