import { z } from 'zod';
import { doc } from './common.js';

export const REQUEST_ID = '5b0e4a1c-3f5e-4a0b-9a53-0c1f0c2b8e11';

/** Every error body: `error` plus the request id that support can trace. */
export const ErrorBody = z.object({ error: z.string(), request_id: z.string().optional() });

export const ValidationErrorBody = doc(
  ErrorBody.extend({ details: z.array(z.object({ path: z.string(), message: z.string() })).optional() }),
  'Validation error: `error` names the first bad field by its dotted path, `details` lists them all (absent for malformed JSON)',
  {
    error: 'guest.email must be a valid email address',
    details: [{ path: 'guest.email', message: 'guest.email must be a valid email address' }],
  },
);

/** Upper-case coded errors of the cancel endpoint: `{ error: CODE, message }`. */
export const CodedErrorBody = ErrorBody.extend({ message: z.string() });

export const coded = (description: string, error: string, message: string) => doc(CodedErrorBody, description, { error, message, request_id: REQUEST_ID });

/** An error body with its own description and example: `{ error, request_id }`. */
export const errorOf = (description: string, error: string) => doc(ErrorBody, description, { error, request_id: REQUEST_ID });

/** A 403 of a route: `Insufficient scope` with `missing`, or `Forbidden`. */
export const ScopeErrorBody = ErrorBody.extend({ missing: z.array(z.string()).optional() });

/** Responses every authenticated route can give, declared once. */
export const commonErrors = {
  400: doc(
    ValidationErrorBody,
    'Bad request: `error` names the first bad field of path, query or body; `details` lists every problem (absent for malformed JSON)',
    { error: 'venue_id must not contain the NUL character (\\u0000)', details: [{ path: 'venue_id', message: 'venue_id must not contain the NUL character (\\u0000)' }], request_id: REQUEST_ID },
  ),
  401: errorOf('`Missing API key`, or `Invalid or revoked API key`', 'Invalid or revoked API key'),
  403: doc(ScopeErrorBody, '`Insufficient scope` with `missing` (the scopes the key lacks), or `Forbidden`', {
    error: 'Insufficient scope',
    missing: ['bookings:read'],
    request_id: REQUEST_ID,
  }),
  429: errorOf('Rate limit exceeded (only when enforcement is on); wait for Retry-After seconds', 'Rate limit exceeded'),
  500: errorOf('Internal server error: nothing about it is shown; quote request_id to support', 'Internal server error'),
} as const;

/** The 400 of a route with a query or a body, whose example names a field of it. */
export const badRequest = (example: string, path: string) => ({
  400: doc(
    ValidationErrorBody,
    'Bad request: `error` names the first bad field of path, query or body; `details` lists every problem (absent for malformed JSON)',
    { error: example, details: [{ path, message: example }], request_id: REQUEST_ID },
  ),
});
