import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrors, errorOf, ErrorText } from './errors.js';
import { doc, Money, single, Uuid } from './common.js';
import { VenuePath } from './venues.js';

const c = initContract();

export const Variant = z.object({
  id: Uuid,
  name: doc(z.string(), 'Variant name', '60 minutes'),
  duration_minutes: doc(z.number().int(), 'Duration in minutes', 60),
  price: Money,
  is_default: doc(z.boolean(), 'Exactly one variant of a treatment is the default', true),
});

export const Treatment = z.object({
  id: Uuid,
  name: doc(z.string(), 'Name in French', 'Massage relaxant'),
  name_en: z.string().nullable(),
  description: z.string().nullable(),
  description_en: z.string().nullable(),
  category: doc(z.string().nullable(), 'Category', 'massage'),
  lead_time_minutes: doc(z.number().int(), 'Minimum notice before a slot can be booked', 120),
  variants: z.array(Variant),
});

export const treatmentsContract = c.router({
  list: {
    method: 'GET',
    path: '/venues/:venue_id/treatments',
    pathParams: VenuePath,
    responses: {
      200: single(z.array(Treatment)),
      ...commonErrors,
      404: errorOf('`Venue not found`', ErrorText.VenueNotFound),
    },
    summary: 'List treatments and their variants',
    description: 'Every treatment of the venue with its bookable variants. Not paginated.',
    metadata: { scope: 'treatments:read' },
  },
});
