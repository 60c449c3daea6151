import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { Example } from './examples.js';

/**
 * A copy of a schema with an OpenAPI description and example (read by @ts-rest/open-api). extendApi annotates
 * the instance it is given, so annotating a shared schema (Money, ErrorBody) in place would change it
 * everywhere; the copy keeps the original's other annotations (lengths, formats) but not its example.
 */
export function doc<T extends z.ZodTypeAny>(schema: T, description: string, example?: unknown): T {
  const { example: _inherited, ...annotations } =
    (schema as { metaOpenApi?: Record<string, unknown> }).metaOpenApi ?? {};
  const copy = schema.describe(description);
  return extendApi(copy, { ...annotations, description, ...(example === undefined ? {} : { example }) });
}

/** Where a named schema keeps its component name and its own description and example. */
export const COMPONENT = 'x-component';

export interface ComponentMark {
  name: string;
  description?: string;
  example?: unknown;
}

/**
 * Names a schema: the OpenAPI document lists it once in `components.schemas` under that name and refers to it
 * everywhere it is used. The mark survives doc() copies, whose use-site description stays beside the reference.
 */
export function named<T extends z.ZodTypeAny>(name: string, schema: T): T {
  const meta = (schema as { metaOpenApi?: Record<string, unknown> }).metaOpenApi ?? {};
  const mark: ComponentMark = {
    name,
    ...(typeof meta.description === 'string' && { description: meta.description }),
    ...(meta.example !== undefined && { example: meta.example }),
  };
  return extendApi(schema, { [COMPONENT]: mark });
}

/**
 * A string whose length limits count characters (Unicode code points, as JSON Schema's minLength and maxLength
 * do), not UTF-16 units: an emoji is one character. zod's own min/max count UTF-16 units.
 */
export function chars(schema: z.ZodString, min: number, max: number) {
  const checked = schema.superRefine((value, ctx) => {
    let length = 0;
    for (const _ of value) length++;
    if (length < min)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: min === 1 ? 'must not be empty' : `must be at least ${min} characters`,
      });
    else if (length > max) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be at most ${max} characters` });
  });
  return extendApi(checked, min > 0 ? { minLength: min, maxLength: max } : { maxLength: max });
}

export const Uuid = doc(z.string().uuid({ message: 'must be a UUID' }), 'UUID', Example.venueId);

/** Whether a value in a UUID-or-something-else position (a venue UUID or slug, a booking UUID or ext:…) is a UUID. */
export const isUuid = (value: string) => Uuid.safeParse(value).success;

/** A venue is addressed by its UUID or by its slug, which is unique within the organisation. */
export const VenueRef = doc(z.string().min(1).max(100), 'Venue UUID or slug', Example.venueSlug);

export const IsoDate = extendApi(
  doc(
    z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date in the form YYYY-MM-DD' }),
    'Calendar date, YYYY-MM-DD',
    Example.date,
  ),
  { format: 'date' },
);

/** An offset within a day (`+23:59` at most, with or without the colon), or Z, at the very end. */
const READABLE_OFFSET = /(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/;
/** Any offset zod's datetime accepts: two digits, an optional colon, two digits. */
const ANY_OFFSET = /[+-]\d\d:?\d\d$/;

/**
 * An ISO 8601 instant with an offset or Z, as a partner or a file sends it. zod's datetime also takes offsets no
 * clock has (+24:00, -25:00, +23:60, +99:99) and a tenth decimal of a second, which Temporal refuses with a
 * RangeError, and year 0000, which PostgreSQL refuses; this is the one schema every instant read from outside goes
 * through, so whatever it lets pass, `Temporal.Instant.from` and a timestamptz read.
 */
export function offsetInstant(message: string) {
  return z
    .string({ required_error: 'is required' })
    .datetime({ offset: true, message })
    .superRefine((value, ctx) => {
      if (!value.includes('T')) return; // not an instant at all: the datetime check has said so
      if (value.startsWith('0000-')) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be in year 0001 or later' });
      } else if (ANY_OFFSET.test(value) && !READABLE_OFFSET.test(value)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must have an offset from -23:59 to +23:59, or Z' });
      } else if (/\.\d{10,}/.test(value)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must have at most 9 decimals of a second' });
      }
    });
}

/**
 * A calendar date that exists (2026-02-30 and 2026-13-01 are refused), so that `Temporal.PlainDate.from` reads it
 * and PostgreSQL's date does too: year 0000 (ISO 8601's 1 BC) is a date zod and Temporal take and PostgreSQL has not.
 */
export function calendarDate(message = 'must be a valid calendar date (YYYY-MM-DD)') {
  return extendApi(
    z
      .string()
      .date(message)
      .refine((value) => !value.startsWith('0000-'), message),
    { format: 'date' },
  );
}

/**
 * An instant as the API writes it: UTC, to the second, `YYYY-MM-DDTHH:mm:ssZ`. The server validates its own
 * answers against this, so no other precision or offset can leave it.
 */
export const UtcInstant = extendApi(
  doc(z.string().datetime({ precision: 0 }), 'Instant in UTC to the second, YYYY-MM-DDTHH:mm:ssZ', Example.startAt),
  { pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$' },
);

export const TimeOfDay = doc(z.string(), 'Venue local time of day, HH:mm:ss', '09:00:00');

export const CurrencyCode = doc(
  z.string().regex(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code such as EUR' }),
  'ISO 4217 currency code',
  'EUR',
);

/** The decimals rule of every amount, stated once for the reference. */
export const AMOUNT_RULE =
  'Amount in major units (120.5 is EUR 120.50), with at most as many decimals as the currency has ' +
  '(2 for EUR and GBP, 0 for JPY, 3 for KWD); an amount with more decimals is refused with a 400.';

export const Money = named(
  'Money',
  doc(
    z.object({
      amount: doc(
        z.number({ invalid_type_error: 'must be a number' }).nonnegative({ message: 'must not be negative' }),
        AMOUNT_RULE,
        120,
      ),
      currency: CurrencyCode,
    }),
    'An amount of money: major units and an ISO 4217 currency',
    { amount: 120, currency: 'EUR' },
  ),
);

/**
 * Query integers arrive as strings; anything but plain digits within bounds is a 400, an empty value too
 * (`?page=` is not an integer). Left out, the default applies. The document declares them as the integers they
 * are, with their bounds, so generated clients send numbers and a validating proxy refuses what the server refuses.
 */
export function queryInt(name: string, min: number, max: number, fallback: number) {
  const range = Number.isFinite(max) ? `from ${min} to ${max}` : `of at least ${min}`;
  const openApi = {
    type: 'integer',
    minimum: min,
    ...(Number.isFinite(max) ? { maximum: max } : { maximum: Number.MAX_SAFE_INTEGER }),
    default: fallback,
    example: fallback,
  };
  return extendApi(
    doc(
      z
        .string()
        .optional()
        .transform((value, ctx) => {
          if (value === undefined) return fallback;
          const parsed = /^\d+$/.test(value) ? Number(value) : NaN;
          if (Number.isNaN(parsed) || parsed < min || parsed > max) {
            ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be an integer ${range}` });
            return z.NEVER;
          }
          if (!Number.isSafeInteger(parsed)) {
            ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be at most ${Number.MAX_SAFE_INTEGER}` });
            return z.NEVER;
          }
          return parsed;
        }),
      `${name}: integer ${range}, default ${fallback}`,
    ),
    openApi,
  );
}

export const PaginationQuery = z.object({
  page: queryInt('page', 1, Number.POSITIVE_INFINITY, 1),
  page_size: queryInt('page_size', 1, 100, 20),
});

export const Pagination = named(
  'Pagination',
  doc(
    z.object({
      page: doc(z.number().int().min(1), 'This page, from 1', 1),
      page_size: doc(z.number().int().min(1).max(100), 'Items per page as asked (the last page may hold fewer)', 20),
      total_items: doc(z.number().int().nonnegative(), 'Items in the whole list', 42),
      total_pages: doc(z.number().int().nonnegative(), 'Pages in the whole list at this page_size (0 when empty)', 3),
    }),
    'Position of this page; a page past the end has empty data and the same block',
    { page: 1, page_size: 20, total_items: 42, total_pages: 3 },
  ),
);

type Page<T extends z.ZodTypeAny> = z.ZodObject<{ data: z.ZodArray<T>; pagination: typeof Pagination }>;
type Single<T extends z.ZodTypeAny> = z.ZodObject<{ data: T }>;

/**
 * The success envelope of one page of items. Named (`VenueListResponse`) in the partner document, one type
 * wherever it is answered; the dashboard's contract, which no published document shows, passes the item alone.
 */
export function page<T extends z.ZodTypeAny>(item: T): Page<T>;
export function page<T extends z.ZodTypeAny>(name: string, item: T, what: string): Page<T>;
export function page<T extends z.ZodTypeAny>(...args: [T] | [string, T, string]): Page<T> {
  if (args.length === 1) return z.object({ data: z.array(args[0]), pagination: Pagination });
  const [name, item, what] = args;
  return named(
    name,
    doc(
      z.object({ data: doc(z.array(item), `${what} of this page`), pagination: Pagination }),
      `One page of ${what.toLowerCase()}`,
    ),
  );
}

/** The success envelope of one item: named (`BookingResponse`) in the partner document, as `page` is. */
export function single<T extends z.ZodTypeAny>(item: T): Single<T>;
export function single<T extends z.ZodTypeAny>(name: string, item: T, what: string): Single<T>;
export function single<T extends z.ZodTypeAny>(...args: [T] | [string, T, string]): Single<T> {
  if (args.length === 1) return z.object({ data: args[0] });
  const [name, item, what] = args;
  return named(name, doc(z.object({ data: item }), `${what}, in \`data\``));
}

/**
 * The sentence every enum of an answer carries: the API may add values in a minor version (docs/api.md,
 * "Versions"), so a client keeps working on a value it does not know.
 */
export const OPEN_ENUM =
  'Open to additions: a minor version may add values, so handle an unknown value without failing';

/**
 * Where the OpenAPI document finds that an enum is open to additions: it writes such an enum so that a generated
 * Java or C# client reads a value it does not know instead of failing (src/openapi/open-enums.ts).
 */
export const OPEN_ENUM_MARK = 'x-open-enum';

/** An enum of an answer, described as open to additions with what a client does with a value it does not know. */
export function openEnum<const T extends [string, ...string[]]>(
  values: T,
  description: string,
  unknown: string,
  example: T[number],
) {
  return extendApi(doc(z.enum(values), `${description}. ${OPEN_ENUM}: ${unknown}.`, example), {
    [OPEN_ENUM_MARK]: true,
  });
}
