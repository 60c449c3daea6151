import { contract } from '@spa/contract';
import { initServer } from '@ts-rest/express';
import type { RouteDeps } from '../app-deps.js';
import { principalOf } from '../auth/principal.js';
import { VariantNotFoundError } from '../errors/domain-errors.js';
import { resolveVenueVariant } from '../venues/venue-access.js';
import { periodOf } from './availability-period.js';
import { computeDays, loadSnapshot, toSnapshotVariant } from '../scheduling/index.js';
import { toSlotJson } from './slot.mapper.js';

export function availabilityRouter({ db, clock }: RouteDeps) {
  return initServer().router(contract.availability, {
    variant: async ({ params, query, res }) => {
      const period = periodOf(query);
      const { venue, variant } = await resolveVenueVariant(db, principalOf(res), params.venue_id, params.variant_id);
      if (!variant) throw new VariantNotFoundError();

      const snapshot = await loadSnapshot(db, venue, toSnapshotVariant(variant), period);
      const days = computeDays(snapshot, period, clock.now(), query.guest_count);
      const ids = { venue_id: venue.id, treatment_id: variant.treatment_id, variant_id: variant.id };
      const data =
        period.mode === 'day'
          ? { ...ids, date: period.from.toString(), slots: (days[0]?.slots ?? []).map(toSlotJson) }
          : {
              ...ids,
              from: period.from.toString(),
              to: period.to.toString(),
              days: days.map((day) => ({ date: day.date.toString(), slots: day.slots.map(toSlotJson) })),
            };
      return { status: 200, body: { data } };
    },
  });
}
