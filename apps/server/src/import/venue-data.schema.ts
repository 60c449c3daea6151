import {
  BookingStatus,
  calendarDate,
  CancellationTier,
  chars,
  CurrencyCode,
  E164_PHONE,
  LANGUAGE_CODE,
  MAX_PRICE,
  Money,
  offsetInstant,
  Scope,
  VenueDetail,
  VenueType,
} from '@spa/contract';
import { MAX_RATE_LIMIT } from '../lib/limits.js';
import { z } from 'zod';
import { minorDigits, toMinor } from '../lib/money.js';

/**
 * The venue data file read by `pnpm spa import` (docs/api.md, "Venue data file"). Strict objects, so a typo in
 * a field name is reported instead of silently ignored. Cross-references are checked in validate-references.ts.
 * The `.describe()` texts are the one place the format is explained: docs/venue-data.schema.json is generated
 * from them (`pnpm --filter @spa/server venue-data-schema`).
 */
const id = z.string().uuid('must be a UUID').describe('A UUID chosen by the author of the file');
const hex = (length: number) =>
  z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`), `must be ${length} lower-case hexadecimal characters`);
const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'must be a time of day HH:mm or HH:mm:ss');
const date = calendarDate('must be a date YYYY-MM-DD');
const instant = offsetInstant('must be an ISO 8601 instant with an offset');
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
  amount: z
    .number()
    .min(0, 'must not be negative')
    .max(MAX_PRICE, `must be at most ${MAX_PRICE}`)
    .describe('Amount in major units (120.5 for 120.50 euros), with at most the decimals of the currency'),
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

// The tier's rules are the contract's (the API answers the tiers the file wrote); the file explains them its way.
const tier = z
  .object({
    min_hours_before: CancellationTier.shape.min_hours_before.describe(
      'This tier applies when at least this many hours are left before the start (fractions allowed)',
    ),
    fee_percent: CancellationTier.shape.fee_percent.describe('Fee charged, in percent of the booking total_price'),
  })
  .strict()
  .describe(
    'A cancellation tier. Tiers are listed from the earliest cancellation to the latest (strictly decreasing min_hours_before); the first whose min_hours_before is at most the hours left applies, and after the start the last one',
  );

const block = z.union(
  [
    z
      .object({
        id,
        daily: z.literal(true).describe('Every day the venue operates, one-time openings included'),
        start_time: timeOfDay.describe('Start of the block, venue local time'),
        end_time: timeOfDay.describe('End of the block, venue local time'),
        reason: optionalText.describe('Why (lunch break, maintenance); shown to nobody but operators'),
      })
      .strict()
      .describe('A daily block: no treatment may overlap it'),
    z
      .object({
        id,
        daily: z.literal(false).optional().describe('false or absent: a one-off block'),
        start_at: instant.describe('Start of the block'),
        end_at: instant.describe('End of the block'),
        reason: optionalText.describe('Why (lunch break, maintenance); shown to nobody but operators'),
      })
      .strict()
      .describe('A one-off block between two instants: no treatment may overlap it'),
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
    name: text.describe('Name of the option, such as "60 min"'),
    duration_minutes: z
      .number()
      .int()
      .min(1, 'must be at least 1')
      .max(1440, 'must be at most 1440 (a day)')
      .describe('Length of the treatment; the room is held this long plus the venue room_turnover_buffer_minutes'),
    price: money.describe('List price, in major units of the venue currency'),
    is_default: z.boolean().describe('Exactly one variant of each treatment is the default'),
  })
  .strict()
  .describe('A bookable option of a treatment: a duration and a price');

const treatment = z
  .object({
    id,
    name: text.describe('Display name in French'),
    name_en: optionalText.describe('Display name in English'),
    description: optionalText.describe('Long description in French'),
    description_en: optionalText.describe('Long description in English'),
    category: optionalText.describe('Free grouping label, such as "massage"'),
    lead_time_minutes: minutes
      .default(0)
      .describe('How long before its start a slot stops being offered, counted from the current instant'),
    required_skills: z
      .array(text)
      .default([])
      .describe(
        'Skills a therapist needs for this treatment: a therapist qualifies when their `skills` contain every one of these (free words, compared exactly, such as "massage"). Empty: every therapist of the venue qualifies',
      ),
    room_ids: z
      .array(id)
      .default([])
      .describe(
        'Rooms of this venue the treatment may take place in. Empty (the default) means any room of the venue whose capacity fits the guests',
      ),
    variants: z.array(variant).min(1, 'a treatment needs at least one variant').describe('At least one'),
  })
  .strict()
  .describe("A treatment of the venue's catalogue, in the order the treatments list shows");

const slug = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be kebab-case (a-z, 0-9 and single hyphens)');

const venue = z
  .object({
    id,
    organisation_id: id.describe(
      'The organisation the venue belongs to: one of this file, or one already in the database',
    ),
    slug: slug.describe(
      'Kebab-case name unique within the organisation; partners may use it instead of the id in paths',
    ),
    status: z
      .enum(['active', 'inactive', 'archived'])
      .default('active')
      .describe('Only `active` venues are served to partners; `inactive` and `archived` ones answer 404'),
    venue_type: z.enum(VenueType.options).describe('`hotel`: a spa inside a hotel; `spa`: an independent day spa'),
    name: text.describe('Display name in French'),
    name_en: optionalText.describe('Display name in English'),
    description: optionalText.describe('Long description in French'),
    description_en: optionalText.describe('Long description in English'),
    landing_subtitle: optionalText.describe('Short subtitle for a landing page'),
    address: optionalText.describe('Street address'),
    postal_code: optionalText.describe('Postal or ZIP code'),
    city: optionalText.describe('City'),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
      .nullable()
      .optional()
      .default(null)
      .describe('ISO 3166-1 alpha-2 code, such as FR'),
    currency: CurrencyCode.describe('ISO 4217 code; every price and booking total of the venue is in it'),
    timezone: z
      .string()
      .describe(
        'Required. The IANA time zone of the venue (such as Europe/Paris, or UTC): opening hours, shifts, blocks and availability dates are read in it',
      ),
    vat: z.number().min(0).max(100).default(0).describe('VAT rate in percent'),
    image: optionalText.describe('Primary image URL'),
    cover_image: optionalText.describe('Cover (hero banner) image URL'),
    opening_time: timeOfDay.describe('Daily opening time, venue local time: the first slot starts here'),
    closing_time: timeOfDay.describe('Daily closing time, venue local time: a treatment must end by then'),
    slot_interval: z
      .number()
      .int()
      .min(5, 'must be at least 5 minutes')
      .max(240)
      .describe('Minutes between two slot starts, counted from opening_time (typically 30)'),
    schedule: z
      .object({
        type: z
          .enum(VenueDetail.shape.schedule_type.options)
          .describe(
            '`recurring`: open on days_of_week every recurrence_interval weeks, plus one_time_openings; `one_time`: open only on the one_time_openings dates',
          ),
        days_of_week: days
          .default([])
          .describe('Days the venue operates: 0 = Sunday, 1 = Monday, … 6 = Saturday (as JavaScript counts them)'),
        recurrence_interval: z
          .number()
          .int()
          .min(1)
          .max(52, 'must be at most 52 (weeks)')
          .nullable()
          .optional()
          .default(1)
          .describe(
            'Open every N weeks (1 = every week), counting ISO weeks from the week of start_date; ignored without a start_date',
          ),
        start_date: date
          .nullable()
          .optional()
          .default(null)
          .describe('First date the recurring schedule applies (YYYY-MM-DD); null: always applied'),
        end_date: date
          .nullable()
          .optional()
          .default(null)
          .describe('Last date the recurring schedule applies (YYYY-MM-DD); null: open-ended'),
      })
      .strict()
      .describe('When the venue operates'),
    one_time_openings: z
      .array(
        z
          .object({
            date: date.describe('A date the venue is open, besides (or instead of) its recurring days'),
            opening_time: timeOfDay
              .nullable()
              .default(null)
              .describe("Opening time that day; null (with closing_time null) means the venue's usual hours"),
            closing_time: timeOfDay
              .nullable()
              .default(null)
              .describe("Closing time that day; null (with opening_time null) means the venue's usual hours"),
          })
          .strict(),
      )
      .default([])
      .describe('Dated openings; on a date the recurring schedule also covers, the opening and its hours win'),
    offert: z.boolean().default(false).describe('True when the venue currently offers complimentary treatments'),
    booking_hold_enabled: z
      .boolean()
      .default(false)
      .describe('Whether a slot is held while the customer completes payment'),
    booking_hold_duration_minutes: minutes.default(0).describe('Length of that hold'),
    allow_out_of_hours_booking: z
      .boolean()
      .default(false)
      .describe(
        'When true, slots also cover therapist shifts outside opening hours; those slots are marked out_of_hours',
      ),
    out_of_hours_surcharge_percent: z
      .number()
      .min(0)
      .default(0)
      .describe('Surcharge for out-of-hours slots, in percent (informative: partners send the price they charged)'),
    room_turnover_buffer_minutes: minutes
      .default(0)
      .describe('Minutes a room stays taken after each treatment (cleaning), before the next one may start in it'),
    inter_venue_buffer_minutes: minutes
      .default(0)
      .describe(
        'Minutes a therapist who also works at another venue needs between a booking there and one here (travel)',
      ),
    therapist_response_minutes: minutes
      .min(1, 'must be at least 1')
      .default(15)
      .describe(
        'Minutes a pending booking waits for a therapist to accept it before it becomes awaiting_therapist (it can still be accepted then)',
      ),
    cancellation_policy: z
      .object({
        partner: z.array(tier).describe('Tiers applied when the partner cancels (cancelled_by partner, the default)'),
        customer: z.array(tier).describe('Tiers applied when the partner cancels on behalf of its customer'),
      })
      .strict()
      .describe('Fees of a cancellation, by who cancels'),
    blocks: z.array(block).default([]).describe('Times no treatment may overlap (lunch break, maintenance)'),
    rooms: z
      .array(
        z
          .object({
            id,
            name: text.describe('Name shown to operators'),
            capacity: z
              .number()
              .int()
              .min(1, 'must be at least 1')
              .max(100, 'must be at most 100')
              .describe('Guests at once: a booking takes one whole room whose capacity is at least its guest_count'),
          })
          .strict()
          .describe('A treatment room'),
      )
      .default([])
      .describe("The venue's rooms; rooms the file no longer lists are deleted (refused while a booking holds one)"),
    treatments: z
      .array(treatment)
      .default([])
      .describe('The catalogue; treatments and variants the file no longer lists are deleted (refused while booked)'),
  })
  .strict()
  .describe('A venue with its rooms, catalogue, schedule and policies; its child lists replace the stored ones');

const therapist = z
  .object({
    id,
    organisation_id: id.describe('Their organisation: one of this file, or one already in the database'),
    first_name: text.describe('First name, as operators see it'),
    last_name: text.describe('Last name, as operators see it'),
    skills: z
      .array(text)
      .default([])
      .describe('Free words compared with each treatment\'s required_skills (such as "massage", "facial")'),
    shifts: z
      .array(
        z
          .object({
            venue_id: id.describe('A venue of the same organisation, in this file or already in the database'),
            days_of_week: days.describe('Days of this shift: 0 = Sunday, 1 = Monday, … 6 = Saturday'),
            start_time: timeOfDay.describe('Venue local time'),
            end_time: timeOfDay.describe('Venue local time, after start_time'),
          })
          .strict(),
      )
      .default([])
      .describe('Weekly working pattern, per venue; a shift or an override at a venue makes the therapist work there'),
    shift_overrides: z
      .array(
        z
          .object({
            venue_id: id.describe('A venue of the same organisation, in this file or already in the database'),
            date: date.describe('The date it replaces the weekly pattern at that venue'),
            start_time: timeOfDay.nullable().describe('Venue local time; null (with end_time null): off that day'),
            end_time: timeOfDay.nullable().describe('Venue local time; null (with start_time null): off that day'),
          })
          .strict(),
      )
      .default([])
      .describe('Dated changes to the weekly pattern'),
    absences: z
      .array(
        z
          .object({
            start_at: instant.describe('Start of the absence'),
            end_at: instant.describe('End of the absence'),
          })
          .strict(),
      )
      .default([])
      .describe('Time off at every venue (holidays, sick leave), between two instants'),
  })
  .strict()
  .describe('A therapist; shifts, overrides and absences replace the stored ones');

const customer = z
  .object({
    id,
    organisation_id: id.describe('Their organisation: one of this file, or one already in the database'),
    first_name: text.describe('First name'),
    last_name: text.describe('Last name'),
    email: z
      .string()
      .email('must be a valid email address')
      .describe(
        'Unique within the organisation (compared without case): bookings made through the API find their customer by it',
      ),
    phone: z
      .string()
      .regex(E164_PHONE, 'must be an E.164 phone number')
      .nullable()
      .optional()
      .default(null)
      .describe('E.164, such as +33612345678'),
    language: z.string().regex(LANGUAGE_CODE, 'must be an ISO 639-1 code').default('fr').describe('ISO 639-1 code'),
  })
  .strict()
  .describe("A customer of the organisation (a partner's guest)");

const booking = z
  .object({
    id,
    venue_id: id.describe('A venue of this file (its rooms and catalogue place the booking)'),
    variant_id: id.describe('A variant of that venue, in this file'),
    customer_id: id.describe("A customer of the venue's organisation, in this file or already in the database"),
    start_at: instant.describe('Start of the treatment; it ends duration_minutes of the variant later'),
    status: BookingStatus.describe(
      'Kept as given (no availability check). pending, awaiting_therapist and confirmed hold a room and their therapists; completed, no_show and cancelled hold nothing',
    ),
    guest_count: z.number().int().min(1).max(20).default(1).describe('Guests served at once, 1 to 20'),
    total_price: money.describe('What the partner charged, in the venue currency'),
    external_id: optionalText.describe("The partner's own reference, unique per venue (its idempotency key)"),
    external_reference: optionalText.describe(
      'Provenance such as hotel.1234: hotel, agency or corporate before the dot give the client_type, anything else external',
    ),
    notes: chars(z.string(), 0, 500)
      .refine(...noNul)
      .nullable()
      .optional()
      .default(null)
      .describe('Free text for the venue, at most 500 characters'),
    therapist_ids: z
      .array(id)
      .default([])
      .describe(
        'Therapists holding the booking (in this file or already in the database), at most one per guest. A confirmed booking names the one who accepted it; a pending one is also offered to every qualified therapist working at the venue',
      ),
  })
  .strict()
  .describe('A booking, imported as it is: history, or bookings made elsewhere');

const apiKey = z
  .object({
    id: hex(12).describe('The key id: the middle part of sk_live_{id}_{secret} (or sk_test_{id}_{secret})'),
    secret: hex(64).describe('The secret part; stored as an HMAC and encrypted, never in clear'),
    organisation_id: id.describe('The organisation the key acts for: one of this file, or one already in the database'),
    venue_id: id
      .nullable()
      .default(null)
      .describe('null: every venue of the organisation; else the one venue the key is restricted to'),
    scopes: z.array(Scope).min(1, 'must grant at least one scope').describe('What the key may call'),
    kind: z
      .enum(['dashboard', 'operator'])
      .describe(
        '`dashboard`: the one key an organisation regenerates itself (at most one active); `operator`: any other',
      ),
    rate_limit_per_min: z
      .number()
      .int()
      .min(1)
      .max(MAX_RATE_LIMIT, `must be at most ${MAX_RATE_LIMIT}`)
      .nullable()
      .default(null)
      .describe('Requests per minute when rate limits are enforced; null: the default'),
    revoked: z.boolean().default(false).describe('A key revoked in the database stays revoked whatever the file says'),
    mode: z
      .enum(['live', 'test'])
      .default('live')
      .describe('`live` (sk_live_, real bookings) or `test` (sk_test_: test bookings, customers and webhooks only)'),
  })
  .strict()
  .describe('A partner API key with a known secret (demo and test data; production keys come from pnpm spa keys)');

/** Fields of the contract's venue the file spells its own way: the schedule object (type, days_of_week, …). */
type ScheduleFields =
  'schedule_type' | 'days_of_week' | 'recurrence_interval' | 'recurring_start_date' | 'recurring_end_date';
/** Contract fields the file has no field for: a field added to the contract and not here fails typecheck, named. */
type UnwrittenVenueFields = Exclude<keyof z.infer<typeof VenueDetail>, keyof z.input<typeof venue> | ScheduleFields>;
export const everyVenueFieldHasAFileField: [UnwrittenVenueFields] extends [never] ? true : UnwrittenVenueFields = true;

export const VenueDataFile = z
  .object({
    $schema: z.string().optional().describe('Path or URL of this schema, for editors'),
    organisations: z
      .array(
        z
          .object({
            id,
            slug: slug.describe('Unique kebab-case name, used by the CLI (--org)'),
            name: text.describe('Display name'),
          })
          .strict()
          .describe('A partner organisation'),
      )
      .default([])
      .describe('Organisations to create or update. Others may be referenced by id when already in the database'),
    api_keys: z.array(apiKey).default([]).describe('API keys with known secrets'),
    venues: z.array(venue).default([]).describe('Venues to create or update, each with everything it owns'),
    therapists: z.array(therapist).default([]).describe('Therapists to create or update'),
    customers: z.array(customer).default([]).describe('Customers to create or update'),
    bookings: z.array(booking).default([]).describe('Bookings to create or update'),
  })
  .strict()
  .describe(
    'Venue data for pnpm spa import. Every entity has a UUID id chosen by the author, so importing is an idempotent upsert; references are by id, to an entity of the file or to one already in the database (organisations, venues, customers and therapists). Times of day are venue local HH:mm or HH:mm:ss; instants are ISO 8601 with an offset.',
  );

export type VenueData = z.infer<typeof VenueDataFile>;
