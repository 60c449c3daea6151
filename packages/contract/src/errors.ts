import { z } from 'zod';
import { doc } from './common.js';

/** Every error body: `error` plus the request id that support can trace. */
export const ErrorBody = doc(
  z.object({ error: z.string(), request_id: z.string().optional() }),
  'Error',
  { error: 'Venue not found', request_id: '5b0e4a1c-3f5e-4a0b-9a53-0c1f0c2b8e11' },
);

export const ValidationErrorBody = doc(
  ErrorBody.extend({ details: z.array(z.object({ path: z.string(), message: z.string() })).optional() }),
  'Validation error: `error` names the first bad field by its dotted path, `details` lists them all (absent for malformed JSON)',
  {
    error: 'guest.email must be a valid email address',
    details: [{ path: 'guest.email', message: 'guest.email must be a valid email address' }],
  },
);

/** Upper-case coded errors of the cancel endpoint. */
export const CodedErrorBody = doc(
  ErrorBody.extend({ message: z.string() }),
  'Coded error',
  { error: 'BOOKING_NOT_FOUND', message: 'Booking not found' },
);

/** Responses every authenticated route can give, declared once. */
export const commonErrors = {
  401: doc(ErrorBody, 'Missing API key, or Invalid or revoked API key'),
  403: doc(
    ErrorBody.extend({ missing: z.array(z.string()).optional() }),
    '`Insufficient scope` with `missing` (the scopes the key lacks), or `Forbidden`',
    { error: 'Insufficient scope', missing: ['bookings:read'] },
  ),
  429: doc(ErrorBody, 'Rate limit exceeded (only when enforcement is on); see Retry-After'),
  500: doc(ErrorBody, 'Internal server error'),
} as const;

export const badRequest = {
  400: doc(
    ValidationErrorBody,
    'Bad request: `error` names the first bad field; `details` lists every problem (absent for malformed JSON)',
  ),
} as const;
