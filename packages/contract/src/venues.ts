import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  CurrencyCode,
  doc,
  IsoDate,
  named,
  openEnum,
  page,
  PaginationQuery,
  single,
  TimeOfDay,
  Uuid,
  VenueRef,
} from './common.js';
import { badRequest, commonErrors, scopeForbidden, venueForbidden, venueNotFound } from './errors.js';
import { Example } from './examples.js';
import { statuses } from './statuses.js';

const c = initContract();

export const VenueType = named(
  'VenueType',
  openEnum(['hotel', 'spa'], 'Where the spa is: in a hotel, or on its own', 'show it as a spa', 'hotel'),
);

export const CancellationTier = named(
  'CancellationTier',
  doc(
    z.object({
      min_hours_before: doc(z.number().nonnegative(), 'Hours left before the start from which this tier applies', 24),
      fee_percent: doc(z.number().min(0).max(100), 'Fee in percent of total_price', 0),
    }),
    'Applies when at least min_hours_before hours remain before the start',
    { min_hours_before: 24, fee_percent: 0 },
  ),
);

const TIERS_EXAMPLE = {
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
};

export const CancellationPolicy = named(
  'CancellationPolicy',
  doc(
    z.object({
      partner: doc(
        z.array(CancellationTier),
        'Tiers when the partner cancels, largest min_hours_before first',
        TIERS_EXAMPLE.partner,
      ),
      customer: doc(
        z.array(CancellationTier),
        'Tiers when the customer cancels, largest min_hours_before first',
        TIERS_EXAMPLE.customer,
      ),
    }),
    'Fee tiers per party that cancels; the first tier whose min_hours_before is at most the hours left applies',
    TIERS_EXAMPLE,
  ),
);

/** A nullable text of a venue, described, with the demo venue's value as its example. */
const text = (description: string, example: string) => doc(z.string().nullable(), description, example);

/** List shape (docs/api.md, "Venue, list shape"); the examples are the demo venue Spa Lumière Paris. */
const venueSummaryFields = {
  id: doc(Uuid, 'Venue UUID', Example.venueId),
  slug: doc(z.string(), 'Kebab-case identifier, unique within the organisation', Example.venueSlug),
  name: doc(z.string(), 'Display name in French', 'Spa Lumière Paris'),
  name_en: text('Display name in English', 'Lumière Spa Paris'),
  description: text('Description in French', 'Spa Lumière Paris : soins du corps et du visage, hammam et piscine.'),
  description_en: text('Description in English', 'Lumière Spa Paris: body and facial treatments, hammam and pool.'),
  address: text('Street address', '12 avenue Montaigne'),
  postal_code: text('Postal code', '75008'),
  city: text('City', 'Paris'),
  country: text('ISO 3166-1 alpha-2 country code', 'FR'),
  currency: doc(CurrencyCode, 'ISO 4217 code of every amount at this venue', 'EUR'),
  venue_type: VenueType,
  timezone: text('IANA timezone of the venue-local dates and times; null means UTC', 'Europe/Paris'),
  image: text('URL of the main image', 'https://images.example.com/spa-lumiere-paris/main.jpg'),
  cover_image: text('URL of the cover image', 'https://images.example.com/spa-lumiere-paris/cover.jpg'),
};

export const VenueSummary = named(
  'VenueSummary',
  doc(z.object(venueSummaryFields), 'A venue in the list shape (GET /v1/venues/{venue_id} has every detail)'),
);

/** Detail shape (docs/api.md, "Venue, detail shape"): every list field plus scheduling and policy. */
export const VenueDetail = named(
  'Venue',
  doc(
    z.object({
      ...venueSummaryFields,
      landing_subtitle: text('Short subtitle for a landing page', 'Une parenthèse de bien-être'),
      status: doc(z.string(), 'Lifecycle status; the API lists active venues only', 'active'),
      vat: doc(z.number(), 'VAT rate in percent', 20),
      opening_time: TimeOfDay,
      closing_time: doc(z.string(), 'Venue local time of day, HH:mm:ss', '21:00:00'),
      slot_interval: doc(z.number().int(), 'Slot granularity in minutes', 30),
      schedule_type: openEnum(
        ['recurring', 'one_time'],
        'How the opening days are defined: recurring weekdays, or one-time openings',
        'read days_of_week as the days it opens',
        'recurring',
      ),
      days_of_week: doc(z.array(z.number().int()), '0 = Sunday .. 6 = Saturday', [0, 1, 2, 3, 4, 5, 6]),
      recurrence_interval: doc(z.number().int().nullable(), 'Operating every N weeks from recurring_start_date', 1),
      recurring_start_date: doc(IsoDate.nullable(), 'First date of the recurring schedule', '2026-01-01'),
      recurring_end_date: doc(IsoDate.nullable(), 'Last date of the recurring schedule; null when open-ended', null),
      offert: doc(z.boolean(), 'Treatments are offered (free of charge) to the guests of this venue', false),
      booking_hold_enabled: doc(z.boolean(), 'Bookings are held for a while before they are confirmed', false),
      booking_hold_duration_minutes: doc(z.number().int(), 'How long a hold lasts, in minutes', 0),
      allow_out_of_hours_booking: doc(z.boolean(), 'Slots outside opening hours may be listed (out_of_hours)', false),
      out_of_hours_surcharge_percent: doc(z.number(), 'Surcharge of an out-of-hours slot, in percent', 0),
      room_turnover_buffer_minutes: doc(z.number().int(), 'Minutes a room stays free between two bookings', 15),
      inter_venue_buffer_minutes: doc(z.number().int(), 'Minutes a therapist needs between bookings at two venues', 30),
      cancellation_policy: CancellationPolicy,
    }),
    'A venue in the detail shape: every list field plus scheduling and policy',
  ),
);

export const VenueListResponse = page('VenueListResponse', VenueSummary, 'Venues');
export const VenueResponse = single('VenueResponse', VenueDetail, 'The venue');

export const VenuePath = z.object({ venue_id: VenueRef });

export const venuesContract = c.router({
  list: {
    method: 'GET',
    path: '/venues',
    query: PaginationQuery,
    responses: statuses({
      200: VenueListResponse,
      ...commonErrors,
      ...badRequest('page must be an integer of at least 1', 'page'),
      403: scopeForbidden,
    }),
    summary: 'List venues',
    description: "Active venues within the key's scope (its organisation, or its one venue), ordered by name.",
    metadata: { operationId: 'listVenues', scope: 'venues:read', tag: 'venues' },
  },
  get: {
    method: 'GET',
    path: '/venues/:venue_id',
    pathParams: VenuePath,
    responses: statuses({
      200: VenueResponse,
      ...commonErrors,
      403: venueForbidden,
      404: venueNotFound,
    }),
    summary: 'Get a venue',
    description: 'One venue in the detail shape, by UUID or slug. Does not embed the treatment catalogue.',
    metadata: { operationId: 'getVenue', scope: 'venues:read', tag: 'venues' },
  },
});
