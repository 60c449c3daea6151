import { initContract } from '@ts-rest/core';
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { calendarDate, doc, IsoDate, named, queryInt, single, UtcInstant, Uuid, VenueRef } from './common.js';
import { badRequest, commonErrors, variantNotFound, venueForbidden } from './errors.js';
import { Example } from './examples.js';
import { statuses } from './statuses.js';

const c = initContract();

export const MAX_RANGE_DAYS = 62;

const hhmm = (description: string, example: string) =>
  extendApi(doc(z.string(), description, example), { pattern: '^\\d{2}:\\d{2}$' });

export const Slot = named(
  'Slot',
  doc(
    z.object({
      time: hhmm('Slot start, UTC, HH:mm', '08:00'),
      local_time: hhmm('Slot start, venue local time, HH:mm', '10:00'),
      start_at: doc(UtcInstant, 'Slot start instant; exactly what POST /bookings takes as start_at', Example.startAt),
      end_at: doc(UtcInstant, 'start_at plus the variant duration', Example.endAt),
      out_of_hours: doc(z.boolean(), 'Outside opening hours (the venue allows it, with its surcharge)', false),
      available_capacity: doc(z.number().int().min(1), 'Largest guest_count one more booking could have here', 2),
    }),
    'A bookable start: book it by sending its start_at',
  ),
);

const ids = {
  venue_id: doc(Uuid, 'Venue UUID', Example.venueId),
  treatment_id: doc(Uuid, 'Treatment UUID', Example.treatmentId),
  variant_id: doc(Uuid, 'Variant UUID', Example.variantId),
};

const slots = doc(z.array(Slot), 'The slots of the date, earliest first; empty when none is free');

/**
 * `mode` tells the two answers apart (the OpenAPI discriminator): beyond the spec's fields, an addition a
 * generated client needs to pick the type without guessing from which fields are present.
 */
export const DayAvailability = named(
  'DayAvailability',
  doc(
    z.object({
      mode: doc(z.literal('day'), 'Day mode: the query had date', 'day'),
      ...ids,
      date: doc(IsoDate, 'The venue-local date asked', Example.date),
      slots,
    }),
    'The slots of one venue-local date (query with date)',
  ),
);

export const AvailabilityDay = named(
  'AvailabilityDay',
  doc(z.object({ date: doc(IsoDate, 'A venue-local date of the range', Example.date), slots }), 'One date of a range'),
);

export const RangeAvailability = named(
  'RangeAvailability',
  doc(
    z.object({
      mode: doc(z.literal('range'), 'Range mode: the query had from and to', 'range'),
      ...ids,
      from: doc(IsoDate, 'First venue-local date of the range', Example.date),
      to: doc(IsoDate, 'Last venue-local date of the range, inclusive', '2030-06-10'),
      days: doc(z.array(AvailabilityDay), 'Every date from `from` to `to`, in order, each with its slots'),
    }),
    'The slots of every venue-local date of a range (query with from and to)',
  ),
);

export const AvailabilityResponse = single(
  'AvailabilityResponse',
  named(
    'Availability',
    doc(
      z.discriminatedUnion('mode', [DayAvailability, RangeAvailability]),
      'One date (mode day) or a range of dates (mode range), as the query asked: `mode` tells which',
    ),
  ),
  'The slots',
);

const realDate = doc(calendarDate(), 'Venue-local calendar date, YYYY-MM-DD');

/** Presence rules only; the order and span of from/to are checked by the server with Temporal. */
export const AvailabilityQuery = z
  .object({
    date: extendApi(realDate.optional(), { example: Example.date }),
    from: realDate.optional(),
    to: realDate.optional(),
    guest_count: queryInt('guest_count', 1, 20, 1),
  })
  .superRefine((q, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
    if (q.date !== undefined && (q.from !== undefined || q.to !== undefined)) {
      return issue('date', 'date cannot be combined with from or to; send either date, or from and to');
    }
    if (q.date !== undefined) return;
    if (q.from === undefined && q.to === undefined) return issue('date', 'date, or both from and to, must be given');
    if (q.from === undefined) return issue('from', 'from is required with to');
    if (q.to === undefined) return issue('to', 'to is required with from');
  });

export const availabilityContract = c.router({
  variant: {
    method: 'GET',
    path: '/venues/:venue_id/availability/variants/:variant_id',
    pathParams: z.object({ venue_id: VenueRef, variant_id: doc(Uuid, 'Variant UUID', Example.variantId) }),
    query: AvailabilityQuery,
    responses: statuses({
      200: AvailabilityResponse,
      ...commonErrors,
      ...badRequest('date must be a date in the form YYYY-MM-DD', 'date'),
      403: venueForbidden,
      404: variantNotFound,
    }),
    summary: 'Slots of one variant (preview)',
    description:
      `Day mode (date) or range mode (from and to, at most ${MAX_RANGE_DAYS} days apart, every date listed). ` +
      'Dates are venue-local calendar dates. Only slots with available_capacity >= guest_count are listed.',
    metadata: { operationId: 'getVariantAvailability', scope: 'availability:read', tag: 'availability', preview: true },
  },
});
