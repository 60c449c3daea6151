import type { VenueDetail, VenueSummary } from '@spa/contract';
import type { z } from 'zod';
import type { CancellationPolicyJson } from '../db/schema.js';
import { pick, VENUE_DETAIL_FIELDS, VENUE_SUMMARY_FIELDS } from './venue-fields.js';
import type { VenueRow } from './venues.repository.js';

type SummaryRow = Pick<VenueRow, keyof z.infer<typeof VenueSummary>>;

/** A venue row in the list shape: the contract's fields, copied (a column type that does not fit fails typecheck). */
export function toVenueSummary(row: SummaryRow): z.infer<typeof VenueSummary> {
  return pick(row, VENUE_SUMMARY_FIELDS);
}

/** A venue row in the detail shape; the cancellation policy's tiers rebuilt in the contract's key order. */
export function toVenueDetail(row: VenueRow): z.infer<typeof VenueDetail> {
  return { ...pick(row, VENUE_DETAIL_FIELDS), cancellation_policy: toCancellationPolicy(row.cancellation_policy) };
}

type Tier = CancellationPolicyJson['partner'][number];
const toTier = (tier: Tier): Tier => ({ min_hours_before: tier.min_hours_before, fee_percent: tier.fee_percent });

/** jsonb keeps an object's keys sorted: the tiers are rebuilt in the contract's order, as its parse wrote them. */
function toCancellationPolicy(policy: CancellationPolicyJson): CancellationPolicyJson {
  return { partner: policy.partner.map(toTier), customer: policy.customer.map(toTier) };
}
