import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { doc, Money, named, single, Uuid } from './common.js';
import { commonErrors, failure, venueForbidden, VenueNotFoundErrorBody } from './errors.js';
import { Example } from './examples.js';
import { VenuePath } from './venues.js';

const c = initContract();

export const Variant = named(
  'Variant',
  z.object({
    id: doc(Uuid, 'Variant UUID: what availability and POST /bookings take', Example.variantId),
    name: doc(z.string(), 'Variant name', '60 min'),
    duration_minutes: doc(z.number().int().min(1), 'Duration in minutes', 60),
    price: Money,
    is_default: doc(z.boolean(), 'Exactly one variant of a treatment is the default', true),
  }),
);

export const Treatment = named(
  'Treatment',
  z.object({
    id: doc(Uuid, 'Treatment UUID', Example.treatmentId),
    name: doc(z.string(), 'Name in French', 'Massage relaxant'),
    name_en: z.string().nullable(),
    description: z.string().nullable(),
    description_en: z.string().nullable(),
    category: doc(z.string().nullable(), 'Category', 'massage'),
    lead_time_minutes: doc(z.number().int().nonnegative(), 'Minimum notice before a slot can be booked', 120),
    variants: z.array(Variant),
  }),
);

export const treatmentsContract = c.router({
  list: {
    method: 'GET',
    path: '/venues/:venue_id/treatments',
    pathParams: VenuePath,
    responses: {
      200: single(z.array(Treatment)),
      ...commonErrors,
      403: venueForbidden,
      404: failure('`Venue not found`', VenueNotFoundErrorBody),
    },
    summary: 'List treatments and their variants',
    description: 'Every treatment of the venue with its bookable variants. Not paginated.',
    metadata: { scope: 'treatments:read', tag: 'treatments' },
  },
});
