import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';

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

export const Uuid = doc(z.string().uuid({ message: 'must be a UUID' }), 'UUID', '0b7c8a46-2f0e-4a53-9a53-0c1f0c2b8e11');

/** Whether a value in a UUID-or-something-else position (a venue UUID or slug, a booking UUID or ext:…) is a UUID. */
export const isUuid = (value: string) => Uuid.safeParse(value).success;

/** A venue is addressed by its UUID or by its slug, which is unique within the organisation. */
export const VenueRef = doc(z.string().min(1).max(100), 'Venue UUID or slug', 'spa-lumiere-paris');

export const IsoDate = doc(
  z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date in the form YYYY-MM-DD' }),
  'Calendar date, YYYY-MM-DD',
  '2026-12-01',
);

/** An ISO 8601 instant in UTC, as the API writes it. */
export const UtcInstant = doc(z.string(), 'ISO 8601 instant in UTC', '2026-12-01T09:00:00Z');

export const TimeOfDay = doc(z.string(), 'Venue local time of day, HH:mm:ss', '09:00:00');

export const CurrencyCode = doc(
  z.string().regex(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code such as EUR' }),
  'ISO 4217 currency code',
  'EUR',
);

export const Money = doc(
  z.object({
    amount: doc(
      z.number({ invalid_type_error: 'must be a number' }).nonnegative({ message: 'must not be negative' }),
      'Amount in major units',
      120,
    ),
    currency: CurrencyCode,
  }),
  'An amount in major currency units',
  { amount: 120, currency: 'EUR' },
);

/**
 * Query integers arrive as strings; anything but plain digits within bounds is a 400, an empty value too
 * (`?page=` is not an integer). Left out, the default applies.
 */
export function queryInt(name: string, min: number, max: number, fallback: number) {
  const range = Number.isFinite(max) ? `from ${min} to ${max}` : `of at least ${min}`;
  return doc(
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
    String(fallback),
  );
}

export const PaginationQuery = z.object({
  page: queryInt('page', 1, Number.POSITIVE_INFINITY, 1),
  page_size: queryInt('page_size', 1, 100, 20),
});

export const Pagination = doc(
  z.object({
    page: z.number().int(),
    page_size: z.number().int(),
    total_items: z.number().int(),
    total_pages: z.number().int(),
  }),
  'Position of this page; a page past the end has empty data and the same block',
  { page: 1, page_size: 20, total_items: 42, total_pages: 3 },
);

export function page<T extends z.ZodTypeAny>(item: T) {
  return z.object({ data: z.array(item), pagination: Pagination });
}

export function single<T extends z.ZodTypeAny>(item: T) {
  return z.object({ data: item });
}
