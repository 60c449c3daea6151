import { z } from 'zod';
import { doc } from './common.js';

export const REQUEST_ID = '5b0e4a1c-3f5e-4a0b-9a53-0c1f0c2b8e11';

/**
 * The API's fixed `error` texts, spelled once: the server answers with them, the SDK names them for `switch`.
 * Two styles, as the spec has them: sentences and snake_case for most routes, upper-case codes on cancel
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
  BookingForbidden: 'FORBIDDEN',
  AmbiguousExternalId: 'AMBIGUOUS_EXTERNAL_ID',
  RateLimitExceeded: 'Rate limit exceeded',
  InvalidJson: 'Request body is not valid JSON',
  PayloadTooLarge: 'Request body is larger than 100 kB',
  InternalServerError: 'Internal server error',
} as const;

/** One problem of a 400: the dotted path of the field and a sentence that names it. */
export const FieldProblem = z.object({ path: z.string(), message: z.string() });

/** Every error body: `error` plus the request id that support can trace. */
export const ErrorBody = z.object({ error: z.string(), request_id: z.string().optional() });

export const ValidationErrorBody = doc(
  ErrorBody.extend({ details: z.array(FieldProblem).optional() }),
  'Validation error: `error` names the first bad field by its dotted path, `details` lists them all (absent for malformed JSON)',
  {
    error: 'guest.email must be a valid email address',
    details: [{ path: 'guest.email', message: 'guest.email must be a valid email address' }],
  },
);

/** Upper-case coded errors of the cancel endpoint: `{ error: CODE, message }`. */
export const CodedErrorBody = ErrorBody.extend({ message: z.string() });

export const coded = (description: string, error: string, message: string) =>
  doc(CodedErrorBody, description, { error, message, request_id: REQUEST_ID });

/** An error body with its own description and example: `{ error, request_id }`. */
export const errorOf = (description: string, error: string) =>
  doc(ErrorBody, description, { error, request_id: REQUEST_ID });

/** A 403 of a route: `Insufficient scope` with `missing`, or `Forbidden`. */
export const ScopeErrorBody = ErrorBody.extend({ missing: z.array(z.string()).optional() });

/** Responses every authenticated route can give, declared once. */
export const commonErrors = {
  400: doc(
    ValidationErrorBody,
    'Bad request: `error` names the first bad field of path, query or body; `details` lists every problem (absent for malformed JSON)',
    {
      error: 'venue_id must not contain the NUL character (\\u0000)',
      details: [{ path: 'venue_id', message: 'venue_id must not contain the NUL character (\\u0000)' }],
      request_id: REQUEST_ID,
    },
  ),
  401: errorOf('`Missing API key`, or `Invalid or revoked API key`', ErrorText.InvalidApiKey),
  403: doc(ScopeErrorBody, '`Insufficient scope` with `missing` (the scopes the key lacks), or `Forbidden`', {
    error: ErrorText.InsufficientScope,
    missing: ['bookings:read'],
    request_id: REQUEST_ID,
  }),
  429: errorOf(
    'Rate limit exceeded (only when enforcement is on); wait for Retry-After seconds',
    ErrorText.RateLimitExceeded,
  ),
  500: errorOf(
    'Internal server error: nothing about it is shown; quote request_id to support',
    ErrorText.InternalServerError,
  ),
} as const;

/** The 400 of a route with a query or a body, whose example names a field of it. */
export const badRequest = (example: string, path: string) => ({
  400: doc(
    ValidationErrorBody,
    'Bad request: `error` names the first bad field of path, query or body; `details` lists every problem (absent for malformed JSON)',
    { error: example, details: [{ path, message: example }], request_id: REQUEST_ID },
  ),
});
