import type { Temporal } from 'temporal-polyfill';
import type { CancellationPolicyJson, CancelledBy } from '../db/schema.js';
import { minorDigits, percentOfMinor } from '../lib/money.js';

export interface CancellationFee {
  feeMinor: number;
  feePercent: number;
  policy: string;
}

/**
 * docs/api.md, "Cancellation policy": the first tier whose min_hours_before <= hours left applies; after the start,
 * the last tier. The fee is total x percent, rounded half-up to the currency's minor unit.
 */
export function cancellationFee(input: {
  policy: CancellationPolicyJson;
  cancelledBy: CancelledBy;
  totalMinor: number;
  currency: string;
  startAt: Temporal.Instant;
  now: Temporal.Instant;
}): CancellationFee {
  const tiers = input.policy[input.cancelledBy] ?? [];
  const hoursLeft = input.now.until(input.startAt).total({ unit: 'hour' });
  const started = hoursLeft < 0;
  const tier = started ? tiers.at(-1) : tiers.find((t) => t.min_hours_before <= hoursLeft);
  const feePercent = tier?.fee_percent ?? 0;
  const feeMinor = percentOfMinor(input.totalMinor, feePercent);

  const who = input.cancelledBy === 'customer' ? 'the customer' : 'the partner';
  const when = started ? `after the start` : `${formatHours(hoursLeft)} before the start`;
  const rule = !tier
    ? 'no tier of the policy applies, so no fee is charged'
    : started
      ? `the last tier applies (${tier.fee_percent}% fee)`
      : `the tier "${plural(tier.min_hours_before, 'hour')} or more before" applies (${tier.fee_percent}% fee)`;
  const amount = (feeMinor / 10 ** minorDigits(input.currency)).toFixed(minorDigits(input.currency));
  return { feeMinor, feePercent, policy: `Cancelled by ${who} ${when}: ${rule}, ${input.currency} ${amount}.` };
}

function formatHours(hours: number): string {
  if (hours < 1) return plural(Math.floor(hours * 60), 'minute');
  return plural(Math.floor(hours * 10) / 10, 'hour');
}

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;
