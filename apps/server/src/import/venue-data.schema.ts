import { chars, CurrencyCode, MAX_PRICE, Money, Scope } from '@spa/contract';
import { MAX_RATE_LIMIT } from '../keys/keys.service.js';
import { z } from 'zod';
import { minorDigits, toMinor } from '../shared/money.js';

/**
 * The venue data file of DECISIONS ("Venue data file"), read by `pnpm spa import`. Strict objects, so a typo
 * in a field name is reported instead of silently ignored. Cross-references are checked in validate-references.ts.
 */
const id = z.string().uuid('must be a UUID');
const hex = (length: number) =>
  z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`), `must be ${length} lower-case hexadecimal characters`);
const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'must be a time of day HH:mm or HH:mm:ss');
const date = z.string().date('must be a date YYYY-MM-DD');
const instant = z.string().datetime({ offset: true, message: 'must be an ISO 8601 instant with an offset' });
// PostgreSQL text cannot hold the NUL character; the file is told so with the field's path.
const noNul = [(s: string) => !s.includes('\u0000'), 'must not contain the NUL character (\\u0000)'] as const;
const text = z
  .string()
  .min(1, 'must not be empty')
  .refine(...noNul);
const optionalText = z
  .string()
  .refine(...noNul)
  .nullable()
  .optional()
  .default(null);
const days = z.array(z.number().int().min(0).max(6, 'days are 0 (Sunday) to 6 (Saturday)')).max(7);
const minutes = z
  .number()
  .int('must be a whole number of minutes')
  .min(0)
  .max(525_600, 'must be at most 525600 (a year)');

/** Money of the API, refused when it has more decimals than its currency allows (stored in minor units). */
const money = Money.extend({
  amount: z.number().min(0, 'must not be negative').max(MAX_PRICE, `must be at most ${MAX_PRICE}`),
})
  .strict()
  .superRefine((value, ctx) => {
    if (
      /^[A-Z]{3}$/.test(value.currency) &&
      value.amount <= MAX_PRICE &&
      toMinor(value.amount, value.currency) === undefined
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: `must have at most ${minorDigits(value.currency)} decimals in ${value.currency}`,
      });
    }
  });

const tier = z.object({ min_hours_before: z.number().min(0), fee_percent: z.number().min(0).max(100) }).strict();

const block = z.union(
  [
    z.object({ id, daily: z.literal(true), start_time: timeOfDay, end_time: timeOfDay, reason: optionalText }).strict(),
    z
      .object({ id, daily: z.literal(false).optional(), start_at: instant, end_at: instant, reason: optionalText })
      .strict(),
  ],
  {
    errorMap: () => ({
      message:
        'must be a daily block { id, daily: true, start_time, end_time, reason } or a one-off block { id, start_at, end_at, reason }',
    }),
  },
);

const variant = z
  .object({
    id,
    name: text,
    duration_minutes: z.number().int().min(1, 'must be at least 1').max(1440, 'must be at most 1440 (a day)'),
    price: money,
    is_default: z.boolean(),
  })
  .strict();

const treatment = z
  .object({
    id,
    name: text,
    name_en: optionalText,
    description: optionalText,
    description_en: optionalText,
    category: optionalText,
    lead_time_minutes: minutes.default(0),
    required_skills: z.array(text).default([]),
    room_ids: z.array(id).default([]),
    variants: z.array(variant).min(1, 'a treatment needs at least one variant'),
  })
  .strict();

const venue = z
  .object({
    id,
    organisation_id: id,
    slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be kebab-case (a-z, 0-9 and single hyphens)'),
    status: text.default('active'),
    venue_type: z.enum(['hotel', 'spa']),
    name: text,
    name_en: optionalText,
    description: optionalText,
    description_en: optionalText,
    landing_subtitle: optionalText,
    address: optionalText,
    postal_code: optionalText,
    city: optionalText,
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
      .nullable()
      .optional()
      .default(null),
    currency: CurrencyCode,
    timezone: z.string().nullable().optional().default(null),
    vat: z.number().min(0).max(100).default(0),
    image: optionalText,
    cover_image: optionalText,
    opening_time: timeOfDay,
    closing_time: timeOfDay,
    slot_interval: z.number().int().min(5, 'must be at least 5 minutes').max(240),
    schedule: z
      .object({
        type: z.enum(['recurring', 'one_time']),
        days_of_week: days.default([]),
        recurrence_interval: z
          .number()
          .int()
          .min(1)
          .max(52, 'must be at most 52 (weeks)')
          .nullable()
          .optional()
          .default(1),
        start_date: date.nullable().optional().default(null),
        end_date: date.nullable().optional().default(null),
      })
      .strict(),
    one_time_openings: z
      .array(
        z
          .object({
            date,
            opening_time: timeOfDay.nullable().default(null),
            closing_time: timeOfDay.nullable().default(null),
          })
          .strict(),
      )
      .default([]),
    offert: z.boolean().default(false),
    booking_hold_enabled: z.boolean().default(false),
    booking_hold_duration_minutes: minutes.default(0),
    allow_out_of_hours_booking: z.boolean().default(false),
    out_of_hours_surcharge_percent: z.number().min(0).default(0),
    room_turnover_buffer_minutes: minutes.default(0),
    inter_venue_buffer_minutes: minutes.default(0),
    therapist_response_minutes: minutes.min(1, 'must be at least 1').default(15),
    cancellation_policy: z.object({ partner: z.array(tier), customer: z.array(tier) }).strict(),
    blocks: z.array(block).default([]),
    rooms: z
      .array(
        z
          .object({
            id,
            name: text,
            capacity: z.number().int().min(1, 'must be at least 1').max(100, 'must be at most 100'),
          })
          .strict(),
      )
      .default([]),
    treatments: z.array(treatment).default([]),
  })
  .strict();

const therapist = z
  .object({
    id,
    organisation_id: id,
    first_name: text,
    last_name: text,
    skills: z.array(text).default([]),
    shifts: z
      .array(z.object({ venue_id: id, days_of_week: days, start_time: timeOfDay, end_time: timeOfDay }).strict())
      .default([]),
    shift_overrides: z
      .array(
        z.object({ venue_id: id, date, start_time: timeOfDay.nullable(), end_time: timeOfDay.nullable() }).strict(),
      )
      .default([]),
    absences: z.array(z.object({ start_at: instant, end_at: instant }).strict()).default([]),
  })
  .strict();

const customer = z
  .object({
    id,
    organisation_id: id,
    first_name: text,
    last_name: text,
    email: z.string().email('must be a valid email address'),
    phone: z
      .string()
      .regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 phone number')
      .nullable()
      .optional()
      .default(null),
    language: z
      .string()
      .regex(/^[a-z]{2}$/, 'must be an ISO 639-1 code')
      .default('fr'),
  })
  .strict();

const booking = z
  .object({
    id,
    venue_id: id,
    variant_id: id,
    customer_id: id,
    start_at: instant,
    status: z.enum(['pending', 'awaiting_therapist', 'confirmed', 'completed', 'no_show', 'cancelled']),
    guest_count: z.number().int().min(1).max(20).default(1),
    total_price: money,
    external_id: optionalText,
    external_reference: optionalText,
    notes: chars(z.string(), 0, 500)
      .refine(...noNul)
      .nullable()
      .optional()
      .default(null),
    therapist_ids: z.array(id).default([]),
  })
  .strict();

const apiKey = z
  .object({
    id: hex(12),
    secret: hex(64),
    organisation_id: id,
    venue_id: id.nullable().default(null),
    scopes: z.array(Scope).min(1, 'must grant at least one scope'),
    kind: z.enum(['dashboard', 'operator']),
    rate_limit_per_min: z
      .number()
      .int()
      .min(1)
      .max(MAX_RATE_LIMIT, `must be at most ${MAX_RATE_LIMIT}`)
      .nullable()
      .default(null),
    revoked: z.boolean().default(false),
  })
  .strict();

export const VenueDataFile = z
  .object({
    $schema: z.string().optional(),
    organisations: z
      .array(
        z.object({ id, slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be kebab-case'), name: text }).strict(),
      )
      .default([]),
    api_keys: z.array(apiKey).default([]),
    venues: z.array(venue).default([]),
    therapists: z.array(therapist).default([]),
    customers: z.array(customer).default([]),
    bookings: z.array(booking).default([]),
  })
  .strict();

export type VenueData = z.infer<typeof VenueDataFile>;
