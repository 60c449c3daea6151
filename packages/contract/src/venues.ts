import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  CurrencyCode,
  doc,
  IsoDate,
  named,
  page,
  PaginationQuery,
  single,
  TimeOfDay,
  Uuid,
  VenueRef,
} from './common.js';
import { badRequest, commonErrors, failure, scopeForbidden, venueForbidden, VenueNotFoundErrorBody } from './errors.js';
import { Example } from './examples.js';

const c = initContract();

export const VenueType = named('VenueType', z.enum(['hotel', 'spa']));

export const CancellationTier = named(
  'CancellationTier',
  doc(
    z.object({ min_hours_before: z.number().nonnegative(), fee_percent: z.number().min(0).max(100) }),
    'Applies when at least min_hours_before hours remain before the start',
    { min_hours_before: 24, fee_percent: 0 },
  ),
);

export const CancellationPolicy = named(
  'CancellationPolicy',
  doc(
    z.object({ partner: z.array(CancellationTier), customer: z.array(CancellationTier) }),
    'Fee tiers per party that cancels; the first tier whose min_hours_before is at most the hours left applies',
    {
      partner: [
        { min_hours_before: 24, fee_percent: 0 },
        { min_hours_before: 2, fee_percent: 50 },
        { min_hours_before: 0, fee_percent: 100 },
      ],
      customer: [
        { min_hours_before: 48, fee_percent: 0 },
        { min_hours_before: 12, fee_percent: 50 },
        { min_hours_before: 0, fee_percent: 100 },
      ],
    },
  ),
);

/** List shape (docs/api.md, "Venue, list shape"). */
const venueSummaryFields = {
  id: doc(Uuid, 'Venue UUID', Example.venueId),
  slug: doc(z.string(), 'Kebab-case identifier, unique within the organisation', Example.venueSlug),
  name: doc(z.string(), 'Display name in French', 'Spa Lumière Paris'),
  name_en: z.string().nullable(),
  description: z.string().nullable(),
  description_en: z.string().nullable(),
  address: z.string().nullable(),
  postal_code: z.string().nullable(),
  city: z.string().nullable(),
  country: doc(z.string().nullable(), 'ISO 3166-1 alpha-2', 'FR'),
  currency: CurrencyCode,
  venue_type: VenueType,
  timezone: doc(z.string().nullable(), 'IANA timezone; null means UTC', 'Europe/Paris'),
  image: z.string().nullable(),
  cover_image: z.string().nullable(),
};

export const VenueSummary = named('VenueSummary', z.object(venueSummaryFields));

/** Detail shape (docs/api.md, "Venue, detail shape"): every list field plus scheduling and policy. */
export const VenueDetail = named(
  'Venue',
  z.object({
    ...venueSummaryFields,
    landing_subtitle: z.string().nullable(),
    status: doc(z.string(), 'Lifecycle status', 'active'),
    vat: doc(z.number(), 'VAT rate in percent', 20),
    opening_time: TimeOfDay,
    closing_time: doc(z.string(), 'Venue local time of day, HH:mm:ss', '20:00:00'),
    slot_interval: doc(z.number().int(), 'Slot granularity in minutes', 30),
    schedule_type: z.enum(['recurring', 'one_time']),
    days_of_week: doc(z.array(z.number().int()), '0 = Sunday .. 6 = Saturday', [1, 2, 3, 4, 5, 6]),
    recurrence_interval: doc(z.number().int().nullable(), 'Operating every N weeks from recurring_start_date', 1),
    recurring_start_date: IsoDate.nullable(),
    recurring_end_date: IsoDate.nullable(),
    offert: z.boolean(),
    booking_hold_enabled: z.boolean(),
    booking_hold_duration_minutes: z.number().int(),
    allow_out_of_hours_booking: z.boolean(),
    out_of_hours_surcharge_percent: z.number(),
    room_turnover_buffer_minutes: z.number().int(),
    inter_venue_buffer_minutes: z.number().int(),
    cancellation_policy: CancellationPolicy,
  }),
);

export const VenuePath = z.object({ venue_id: VenueRef });

export const venuesContract = c.router({
  list: {
    method: 'GET',
    path: '/venues',
    query: PaginationQuery,
    responses: {
      200: page(VenueSummary),
      ...commonErrors,
      ...badRequest('page must be an integer of at least 1', 'page'),
      403: scopeForbidden,
    },
    summary: 'List venues',
    description: "Active venues within the key's scope (its organisation, or its one venue), ordered by name.",
    metadata: { scope: 'venues:read', tag: 'venues' },
  },
  get: {
    method: 'GET',
    path: '/venues/:venue_id',
    pathParams: VenuePath,
    responses: {
      200: single(VenueDetail),
      ...commonErrors,
      403: venueForbidden,
      404: failure('`Venue not found`', VenueNotFoundErrorBody),
    },
    summary: 'Get a venue',
    description: 'One venue in the detail shape, by UUID or slug. Does not embed the treatment catalogue.',
    metadata: { scope: 'venues:read', tag: 'venues' },
  },
});
