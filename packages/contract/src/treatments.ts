import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { doc, Money, named, single, Uuid } from './common.js';
import { commonErrors, venueForbidden, venueNotFound } from './errors.js';
import { Example } from './examples.js';
import { VenuePath } from './venues.js';
import { statuses } from './statuses.js';

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
  doc(
    z.object({
      id: doc(Uuid, 'Treatment UUID', Example.treatmentId),
      name: doc(z.string(), 'Name in French', 'Massage relaxant'),
      name_en: doc(z.string().nullable(), 'Name in English', 'Relaxing massage'),
      description: doc(z.string().nullable(), 'Description in French', 'Massage relaxant, par nos thérapeutes.'),
      description_en: doc(z.string().nullable(), 'Description in English', 'Relaxing massage, by our therapists.'),
      category: doc(z.string().nullable(), 'Category', 'massage'),
      lead_time_minutes: doc(z.number().int().nonnegative(), 'Minimum notice before a slot can be booked', 120),
      variants: doc(z.array(Variant), 'The bookable variants (durations and prices)'),
    }),
    'A treatment of the catalogue with its variants',
  ),
);

export const TreatmentListResponse = single(
  'TreatmentListResponse',
  doc(z.array(Treatment), 'Every treatment of the venue'),
  'The treatments',
);

export const treatmentsContract = c.router({
  list: {
    method: 'GET',
    path: '/venues/:venue_id/treatments',
    pathParams: VenuePath,
    responses: statuses({
      200: TreatmentListResponse,
      ...commonErrors,
      403: venueForbidden,
      404: venueNotFound,
    }),
    summary: 'List treatments and their variants',
    description: 'Every treatment of the venue with its bookable variants. Not paginated.',
    metadata: { operationId: 'listTreatments', scope: 'treatments:read', tag: 'treatments' },
  },
});
