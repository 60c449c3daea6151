import { initContract } from '@ts-rest/core';
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { doc, IsoDate, named, queryInt, single, UtcInstant, Uuid, VenueRef } from './common.js';
import {
  badRequest,
  commonErrors,
  failure,
  VariantNotFoundErrorBody,
  venueForbidden,
  VenueNotFoundErrorBody,
} from './errors.js';
import { Example } from './examples.js';

const c = initContract();

export const MAX_RANGE_DAYS = 62;

const hhmm = (description: string, example: string) =>
  extendApi(doc(z.string(), description, example), { pattern: '^\\d{2}:\\d{2}$' });

export const Slot = named(
  'Slot',
  z.object({
    time: hhmm('Slot start, UTC, HH:mm', '08:00'),
    local_time: hhmm('Slot start, venue local time, HH:mm', '10:00'),
    start_at: doc(UtcInstant, 'Slot start instant; exactly what POST /bookings takes as start_at', Example.startAt),
    end_at: doc(UtcInstant, 'start_at plus the variant duration', Example.endAt),
    out_of_hours: z.boolean(),
    available_capacity: doc(z.number().int().min(1), 'Largest guest_count one more booking could have here', 2),
  }),
);

const ids = {
  venue_id: doc(Uuid, 'Venue UUID', Example.venueId),
  treatment_id: doc(Uuid, 'Treatment UUID', Example.treatmentId),
  variant_id: doc(Uuid, 'Variant UUID', Example.variantId),
};

export const DayAvailability = named('DayAvailability', z.object({ ...ids, date: IsoDate, slots: z.array(Slot) }));

export const AvailabilityDay = named('AvailabilityDay', z.object({ date: IsoDate, slots: z.array(Slot) }));

export const RangeAvailability = named(
  'RangeAvailability',
  z.object({ ...ids, from: IsoDate, to: IsoDate, days: z.array(AvailabilityDay) }),
);

const realDate = extendApi(
  doc(z.string().date('must be a valid calendar date (YYYY-MM-DD)'), 'Venue-local calendar date, YYYY-MM-DD'),
  { format: 'date' },
);

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
    responses: {
      200: single(z.union([DayAvailability, RangeAvailability])),
      ...commonErrors,
      ...badRequest('date must be a date in the form YYYY-MM-DD', 'date'),
      403: venueForbidden,
      404: failure('`Venue not found`, or `Variant not found`', VenueNotFoundErrorBody, VariantNotFoundErrorBody),
    },
    summary: 'Slots of one variant (preview)',
    description:
      `Day mode (date) or range mode (from and to, at most ${MAX_RANGE_DAYS} days apart, every date listed). ` +
      'Dates are venue-local calendar dates. Only slots with available_capacity >= guest_count are listed.',
    metadata: { scope: 'availability:read', tag: 'availability', preview: true },
  },
});
