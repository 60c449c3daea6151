import type { VenueDetail, VenueSummary } from '@spa/contract';
import type { z } from 'zod';
import type { CancellationPolicyJson } from '../db/schema.js';
import type { VenueRow } from './venues.repository.js';

type SummaryRow = Pick<VenueRow, keyof z.infer<typeof VenueSummary>>;

export function toVenueSummary(row: SummaryRow): z.infer<typeof VenueSummary> {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    name_en: row.name_en,
    description: row.description,
    description_en: row.description_en,
    address: row.address,
    postal_code: row.postal_code,
    city: row.city,
    country: row.country,
    currency: row.currency,
    venue_type: row.venue_type,
    timezone: row.timezone,
    image: row.image,
    cover_image: row.cover_image,
  };
}

export function toVenueDetail(row: VenueRow): z.infer<typeof VenueDetail> {
  return {
    ...toVenueSummary(row),
    landing_subtitle: row.landing_subtitle,
    status: row.status,
    vat: row.vat,
    opening_time: row.opening_time,
    closing_time: row.closing_time,
    slot_interval: row.slot_interval,
    schedule_type: row.schedule_type,
    days_of_week: row.days_of_week,
    recurrence_interval: row.recurrence_interval,
    recurring_start_date: row.recurring_start_date,
    recurring_end_date: row.recurring_end_date,
    offert: row.offert,
    booking_hold_enabled: row.booking_hold_enabled,
    booking_hold_duration_minutes: row.booking_hold_duration_minutes,
    allow_out_of_hours_booking: row.allow_out_of_hours_booking,
    out_of_hours_surcharge_percent: row.out_of_hours_surcharge_percent,
    room_turnover_buffer_minutes: row.room_turnover_buffer_minutes,
    inter_venue_buffer_minutes: row.inter_venue_buffer_minutes,
    cancellation_policy: toCancellationPolicy(row.cancellation_policy),
  };
}

type Tier = CancellationPolicyJson['partner'][number];
const toTier = (tier: Tier): Tier => ({ min_hours_before: tier.min_hours_before, fee_percent: tier.fee_percent });

/** jsonb keeps an object's keys sorted: the tiers are rebuilt in the contract's order, as its parse wrote them. */
function toCancellationPolicy(policy: CancellationPolicyJson): CancellationPolicyJson {
  return { partner: policy.partner.map(toTier), customer: policy.customer.map(toTier) };
}
