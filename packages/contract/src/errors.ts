import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { doc, Money, named } from './common.js';
import { Example } from './examples.js';
import { Scope } from './scopes.js';

export const REQUEST_ID = Example.requestId;

/**
 * The API's fixed `error` texts, spelled once: the server answers with them, the SDK names them for `switch`.
 * Two styles, as docs/api.md ("Errors") has them: sentences and snake_case for most routes, upper-case codes on cancel
 * (`FORBIDDEN` there, `Forbidden` elsewhere). A 400 and the 422 write sentences naming the field instead.
 */
export const ErrorText = {
  MissingApiKey: 'Missing API key',
  InvalidApiKey: 'Invalid or revoked API key',
  InsufficientScope: 'Insufficient scope',
  Forbidden: 'Forbidden',
  VenueNotFound: 'Venue not found',
  VariantNotFound: 'Variant not found',
  CustomerNotFound: 'Customer not found in this venue',
  RouteNotFound: 'Not found',
  SlotUnavailable: 'slot_unavailable',
  DuplicateExternalId: 'duplicate_external_id',
  BookingNotFound: 'BOOKING_NOT_FOUND',
  /** The read of one booking answers in the sentence style of the read routes. */
  NoSuchBooking: 'Booking not found',
  BookingAlreadyCancelled: 'BOOKING_ALREADY_CANCELLED',
  BookingNotReschedulable: 'BOOKING_NOT_RESCHEDULABLE',
  RescheduleFeeApplies: 'RESCHEDULE_FEE_APPLIES',
  BookingForbidden: 'FORBIDDEN',
  AmbiguousExternalId: 'AMBIGUOUS_EXTERNAL_ID',
  RateLimitExceeded: 'Rate limit exceeded',
  InvalidJson: 'Request body is not valid JSON',
  PayloadTooLarge: 'Request body is larger than 100 kB',
  InternalServerError: 'Internal server error',
  ServiceUnavailable: 'Service unavailable',
  UnsupportedContentEncoding: 'Unsupported Content-Encoding: send the body as identity, gzip or deflate',
  RequestTimeout: 'Request body did not arrive within 10 s of its headers',
} as const;

const RequestId = doc(z.string(), 'The request id (also in the X-Request-Id header); quote it to support', REQUEST_ID);

/** One problem of a 400: the dotted path of the field and a sentence that names it. */
export const FieldProblem = named(
  'FieldProblem',
  doc(
    z.object({
      path: doc(z.string(), 'Dotted path of the field (guest.email), or the query or path parameter', 'guest.email'),
      message: doc(
        z.string(),
        'A sentence naming the field and what is wrong with it',
        'guest.email must be a valid email address',
      ),
    }),
    'One bad field: its dotted path and a sentence naming it',
    {
      path: 'guest.email',
      message: 'guest.email must be a valid email address',
    },
  ),
);

/** What the `error` of a fixed-text body is: the discriminator of the error schemas of a status. */
const FIXED_TEXT =
  'The error, a fixed text that never changes within a major version: compare it exactly (it is the discriminator of the error bodies of a status)';

/** What every error body has: `error` plus the request id that support can trace. */
export const ErrorBody = z.object({
  error: doc(z.string(), 'What went wrong: a fixed text, or a sentence naming a field (400, 422)', 'Venue not found'),
  request_id: RequestId,
});

/** An error body whose `error` is one of a few fixed texts, named for the reference. */
function fixedError<const T extends [string, ...string[]]>(name: string, texts: T, description: string) {
  return named(
    name,
    doc(ErrorBody.extend({ error: doc(z.enum(texts), FIXED_TEXT, texts[0]) }), description, {
      error: texts[0],
      request_id: REQUEST_ID,
    }),
  );
}

const MESSAGE = 'A sentence for people; its wording may change, so never parse it (switch on `error`)';

/** Upper-case coded errors of the cancel endpoint: `{ error: CODE, message }`. */
function codedError<const T extends string>(name: string, code: T, message: string, description: string) {
  return named(
    name,
    doc(
      ErrorBody.extend({ error: doc(z.literal(code), FIXED_TEXT, code), message: doc(z.string(), MESSAGE, message) }),
      description,
      { error: code, message, request_id: REQUEST_ID },
    ),
  );
}

export const ValidationErrorBody = named(
  'ValidationError',
  doc(
    ErrorBody.extend({
      error: doc(
        z.string(),
        `A sentence naming the first bad field by its dotted path, or \`${ErrorText.InvalidJson}\``,
        'guest.email must be a valid email address',
      ),
      details: doc(z.array(FieldProblem).optional(), 'Every bad field (absent for malformed JSON)'),
    }),
    '400: `error` names the first bad field of path, query or body; `details` lists every problem (absent for malformed JSON)',
    {
      error: 'guest.email must be a valid email address',
      details: [{ path: 'guest.email', message: 'guest.email must be a valid email address' }],
      request_id: REQUEST_ID,
    },
  ),
);

export const UnauthorizedErrorBody = fixedError(
  'UnauthorizedError',
  [ErrorText.MissingApiKey, ErrorText.InvalidApiKey],
  '401: no API key was sent, or it is not a valid active key',
);

export const InsufficientScopeErrorBody = named(
  'InsufficientScopeError',
  doc(
    ErrorBody.extend({
      error: doc(z.literal(ErrorText.InsufficientScope), FIXED_TEXT, ErrorText.InsufficientScope),
      missing: doc(z.array(Scope), 'The scopes the key lacks', ['bookings:write']),
    }),
    '403: the key lacks a scope the route requires',
    { error: ErrorText.InsufficientScope, missing: ['bookings:write'], request_id: REQUEST_ID },
  ),
);

export const ForbiddenErrorBody = fixedError(
  'ForbiddenError',
  [ErrorText.Forbidden],
  '403: a venue of another organisation, or one the key is not restricted to',
);

export const VenueNotFoundErrorBody = fixedError(
  'VenueNotFoundError',
  [ErrorText.VenueNotFound],
  '404: no active venue of your organisation has this UUID or slug',
);
export const VariantNotFoundErrorBody = fixedError(
  'VariantNotFoundError',
  [ErrorText.VariantNotFound],
  '404: the venue has no variant with this id',
);
export const CustomerNotFoundErrorBody = fixedError(
  'CustomerNotFoundError',
  [ErrorText.CustomerNotFound],
  '404: the customer has no booking at this venue, or does not exist',
);
export const SlotUnavailableErrorBody = fixedError(
  'SlotUnavailableError',
  [ErrorText.SlotUnavailable],
  '409: start_at is not a slot availability lists now (taken meanwhile, or never listed)',
);
export const DuplicateExternalIdErrorBody = fixedError(
  'DuplicateExternalIdError',
  [ErrorText.DuplicateExternalId],
  '409: a first request with this external_id is still in flight; retry it',
);
export const CurrencyMismatchErrorBody = named(
  'CurrencyMismatchError',
  doc(
    ErrorBody.extend({
      error: doc(
        z.string().regex(/^price_paid\.currency must equal the venue currency \([A-Z]{3}\)$/),
        'Names the venue currency',
        'price_paid.currency must equal the venue currency (EUR)',
      ),
    }),
    '422: price_paid is in another currency than the venue',
    { error: 'price_paid.currency must equal the venue currency (EUR)', request_id: REQUEST_ID },
  ),
);
export const PayloadTooLargeErrorBody = fixedError(
  'PayloadTooLargeError',
  [ErrorText.PayloadTooLarge],
  '413: the request body is over 100 kB',
);
export const UnsupportedContentEncodingErrorBody = fixedError(
  'UnsupportedContentEncodingError',
  [ErrorText.UnsupportedContentEncoding],
  '415: the body has a Content-Encoding the server does not decode (send identity, gzip or deflate)',
);
export const RequestTimeoutErrorBody = fixedError(
  'RequestTimeoutError',
  [ErrorText.RequestTimeout],
  '408: the request body did not arrive within 10 s of its headers',
);
export const RateLimitErrorBody = fixedError(
  'RateLimitError',
  [ErrorText.RateLimitExceeded],
  '429: over the rate limit of the key (only when enforcement is on); wait for Retry-After seconds',
);
export const InternalServerErrorBody = fixedError(
  'InternalServerError',
  [ErrorText.InternalServerError],
  '500: nothing about the failure is shown; quote request_id to support',
);
export const ServiceUnavailableErrorBody = fixedError(
  'ServiceUnavailableError',
  [ErrorText.ServiceUnavailable],
  '503: the database cannot be reached for now; retry after Retry-After seconds',
);

export const NoSuchBookingErrorBody = fixedError(
  'NoSuchBookingError',
  [ErrorText.NoSuchBooking],
  '404: no booking your key can see has this id or external id',
);
export const BookingNotFoundErrorBody = codedError(
  'BookingNotFoundError',
  ErrorText.BookingNotFound,
  'Booking not found',
  '404: no booking your key can see has this id or external id',
);
export const BookingForbiddenErrorBody = codedError(
  'BookingForbiddenError',
  ErrorText.BookingForbidden,
  'This booking belongs to a venue your key cannot access',
  '403: the booking belongs to a venue your key cannot access',
);
export const AmbiguousExternalIdErrorBody = codedError(
  'AmbiguousExternalIdError',
  ErrorText.AmbiguousExternalId,
  'This external id matches bookings at several venues; cancel by booking id',
  '409: the external id matches bookings at several venues; cancel by UUID',
);
export const BookingAlreadyCancelledErrorBody = codedError(
  'BookingAlreadyCancelledError',
  ErrorText.BookingAlreadyCancelled,
  'Booking is already cancelled and cannot be cancelled',
  '422: the booking is already cancelled, completed or no-show',
);

export const BookingNotReschedulableErrorBody = codedError(
  'BookingNotReschedulableError',
  ErrorText.BookingNotReschedulable,
  'Booking has started and cannot be rescheduled',
  '422: the booking has started, or is completed or no-show',
);
export const RescheduleFeeAppliesErrorBody = named(
  'RescheduleFeeAppliesError',
  doc(
    ErrorBody.extend({
      error: doc(z.literal(ErrorText.RescheduleFeeApplies), FIXED_TEXT, ErrorText.RescheduleFeeApplies),
      message: doc(z.string(), MESSAGE, 'A partner cancellation now would cost a fee: cancel instead'),
      fee: doc(Money, 'What a partner cancellation would cost right now', { amount: 60, currency: 'EUR' }),
    }),
    '422: a partner cancellation right now would cost a fee (the booking is inside a fee tier): cancel it instead',
    {
      error: ErrorText.RescheduleFeeApplies,
      message: 'A partner cancellation now would cost a fee: cancel instead',
      fee: { amount: 60, currency: 'EUR' },
      request_id: REQUEST_ID,
    },
  ),
);

/** Every coded error of the cancel endpoint has a `message`; the SDK reads it from this shape. */
export const CodedErrorBody = ErrorBody.extend({ message: doc(z.string(), MESSAGE) });

/** Where the OpenAPI document finds the name of a response shared by several operations. */
export const SHARED_RESPONSE = 'x-response';

/** One response several routes give alike: `components.responses[name]` in the document, referred to by each. */
function shared<T extends z.ZodTypeAny>(name: string, schema: T): T {
  return extendApi(schema, { [SHARED_RESPONSE]: name });
}

type ErrorSchema = z.ZodObject<{ error: z.ZodTypeAny; request_id: z.ZodTypeAny }>;

/**
 * One status of a route: one error body, or several told apart by their `error` text (a discriminated union, so
 * generated clients switch on `error`). The description says when the route answers it.
 */
export function failure<T extends ErrorSchema>(description: string, schema: T): T;
export function failure<T extends [ErrorSchema, ErrorSchema, ...ErrorSchema[]]>(
  description: string,
  ...schemas: T
): z.ZodDiscriminatedUnion<'error', T>;
export function failure(description: string, ...schemas: ErrorSchema[]) {
  const [first] = schemas;
  if (schemas.length === 1 && first) return doc(first, description);
  return doc(z.discriminatedUnion('error', schemas as [ErrorSchema, ErrorSchema]), description);
}

/** Responses every route can give, declared once. */
export const commonErrors = {
  400: shared(
    'BadRequestResponse',
    failure(
      'Bad request: `error` names the first bad field of path, query or body; `details` lists every problem',
      ValidationErrorBody,
    ),
  ),
  401: shared(
    'UnauthorizedResponse',
    failure('`Missing API key`, or `Invalid or revoked API key`', UnauthorizedErrorBody),
  ),
  429: shared(
    'TooManyRequestsResponse',
    failure('Rate limit exceeded (only when enforcement is on); wait for Retry-After seconds', RateLimitErrorBody),
  ),
  500: shared(
    'InternalServerErrorResponse',
    failure('Internal server error: nothing about it is shown; quote request_id to support', InternalServerErrorBody),
  ),
  503: shared(
    'ServiceUnavailableResponse',
    failure(
      'The database cannot be reached or did not answer in time; nothing was changed unless a retry with the same ' +
        'external_id replays it. Retry after Retry-After seconds',
      ServiceUnavailableErrorBody,
    ),
  ),
} as const;

/** Responses of a route that takes a JSON body. */
export const bodyErrors = {
  408: shared(
    'RequestTimeoutResponse',
    failure('The request body did not arrive within 10 s of its headers', RequestTimeoutErrorBody),
  ),
  413: shared('PayloadTooLargeResponse', failure('The request body is over 100 kB', PayloadTooLargeErrorBody)),
  415: shared(
    'UnsupportedContentEncodingResponse',
    failure('The body has a Content-Encoding the server does not decode', UnsupportedContentEncodingErrorBody),
  ),
} as const;

/** The 403 of a route that addresses a venue: a missing scope, or a venue the key may not use. */
export const venueForbidden = shared(
  'VenueForbiddenResponse',
  failure(
    '`Insufficient scope` with `missing` (the scopes the key lacks), or `Forbidden` (a venue of another organisation, or one the key is not restricted to)',
    InsufficientScopeErrorBody,
    ForbiddenErrorBody,
  ),
);

/** The 403 of a route that addresses no venue: a missing scope only. */
export const scopeForbidden = shared(
  'ScopeForbiddenResponse',
  failure('`Insufficient scope` with `missing` (the scopes the key lacks)', InsufficientScopeErrorBody),
);

/** The 404 of a route on one venue whose only miss is the venue. */
export const venueNotFound = shared('VenueNotFoundResponse', failure('`Venue not found`', VenueNotFoundErrorBody));

/** The 404 of a route on a venue and a variant. */
export const variantNotFound = shared(
  'VenueOrVariantNotFoundResponse',
  failure('`Venue not found`, or `Variant not found`', VenueNotFoundErrorBody, VariantNotFoundErrorBody),
);

/** The 400 of a route with a query or a body, whose example names a field of it. */
export const badRequest = (example: string, path: string) => ({
  400: doc(
    ValidationErrorBody,
    'Bad request: `error` names the first bad field of path, query or body; `details` lists every problem',
    { error: example, details: [{ path, message: example }], request_id: REQUEST_ID },
  ),
});
