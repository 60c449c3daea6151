import { z } from 'zod';
import { doc } from './common.js';

/** Every error body: `error` plus the request id that support can trace. */
export const ErrorBody = doc(
  z.object({ error: z.string(), request_id: z.string().optional() }),
  'Error',
  { error: 'Venue not found', request_id: '5b0e4a1c-3f5e-4a0b-9a53-0c1f0c2b8e11' },
);

export const ValidationErrorBody = doc(
  z.object({
    error: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })),
    request_id: z.string().optional(),
  }),
  'Validation error: `error` names the first bad field by its dotted path, `details` lists them all',
  {
    error: 'guest.email must be a valid email address',
    details: [{ path: 'guest.email', message: 'guest.email must be a valid email address' }],
  },
);

export const ScopeErrorBody = doc(
  z.object({ error: z.literal('Insufficient scope'), missing: z.array(z.string()), request_id: z.string().optional() }),
  'The key lacks a scope of this endpoint',
  { error: 'Insufficient scope', missing: ['bookings:read'] },
);

/** Upper-case coded errors of the cancel endpoint. */
export const CodedErrorBody = doc(
  z.object({ error: z.string(), message: z.string(), request_id: z.string().optional() }),
  'Coded error',
  { error: 'BOOKING_NOT_FOUND', message: 'Booking not found' },
);

/** Responses every authenticated route can give, declared once. */
export const commonErrors = {
  401: doc(ErrorBody, 'Missing API key, or Invalid or revoked API key'),
  403: doc(z.union([ScopeErrorBody, ErrorBody]), 'Insufficient scope (with `missing`), or Forbidden'),
  429: doc(ErrorBody, 'Rate limit exceeded (only when enforcement is on); see Retry-After'),
  500: doc(ErrorBody, 'Internal server error'),
} as const;

export const badRequest = { 400: doc(z.union([ValidationErrorBody, ErrorBody]), 'Bad request') } as const;
