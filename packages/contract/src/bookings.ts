import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { badRequest, coded, commonErrors, errorOf, ErrorText, REQUEST_ID, ScopeErrorBody } from './errors.js';
import { chars, doc, Money, single, UtcInstant, Uuid } from './common.js';
import { VenuePath } from './venues.js';

const c = initContract();

export const BookingStatus = doc(
  z.enum(['pending', 'awaiting_therapist', 'confirmed', 'completed', 'no_show', 'cancelled']),
  'pending on creation; confirmed once a therapist accepts',
  'pending',
);

export const CancelledBy = z.enum(['partner', 'customer']);

export const Cancellation = z.object({
  fee: Money,
  policy: doc(
    z.string(),
    'The tier applied, in one English sentence',
    'Cancelled 30 hours before the start by the partner: 0% fee (tier: 24 hours or more before).',
  ),
  cancelled_at: UtcInstant,
  cancelled_by: CancelledBy,
  reason: z.string(),
});

export const Booking = z.object({
  id: Uuid,
  booking_number: doc(z.number().int(), 'Human-facing number, unique and increasing', 10042),
  status: BookingStatus,
  venue_id: Uuid,
  treatment_id: Uuid,
  variant_id: Uuid,
  customer_id: Uuid,
  start_at: UtcInstant,
  end_at: UtcInstant,
  guest_count: z.number().int(),
  notes: z.string().nullable(),
  external_reference: doc(z.string().nullable(), 'Provenance, source.XXXX', 'hotel.ROOM-412'),
  external_id: doc(z.string().nullable(), "Partner's idempotency key, unique per venue", 'pms-58213'),
  client_type: doc(z.enum(['hotel', 'agency', 'corporate', 'external']), 'Derived from external_reference', 'hotel'),
  total_price: Money,
  payment_method: z.literal('partner_billed'),
  payment_status: z.literal('paid'),
  created_at: UtcInstant,
  updated_at: UtcInstant,
  cancellation: Cancellation.nullable(),
});

export const Guest = z.object({
  first_name: chars(z.string({ required_error: 'is required' }).trim(), 1, 100),
  last_name: chars(z.string({ required_error: 'is required' }).trim(), 1, 100),
  email: doc(
    z.string({ required_error: 'is required' }).trim().email('must be a valid email address').max(254),
    'Guest email; the customer is found or created by it',
    'claire.martin@example.com',
  ),
  phone: doc(
    z
      .string()
      .regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 phone number such as +33612345678')
      .nullish(),
    'E.164',
    '+33612345678',
  ),
  language: doc(
    z
      .string()
      .regex(/^[a-z]{2}$/, 'must be an ISO 639-1 code such as fr')
      .nullish(),
    'ISO 639-1, default fr',
    'fr',
  ),
});

/** The largest price_paid.amount taken: far above any treatment, and exact in minor units for every currency. */
export const MAX_PRICE = 1_000_000_000;

export const CreateBookingBody = z.object({
  variant_id: Uuid,
  start_at: doc(
    z
      .string({ required_error: 'is required' })
      .datetime({ offset: true, message: 'must be an ISO 8601 instant with an offset or Z' }),
    'Slot start exactly as listed by availability (start_at); must be in the future',
    '2026-12-01T09:00:00Z',
  ),
  guest_count: doc(
    z
      .number({ invalid_type_error: 'must be an integer' })
      .int('must be an integer')
      .min(1, 'must be from 1 to 20')
      .max(20, 'must be from 1 to 20')
      .default(1),
    'Guests, 1 to 20',
    1,
  ),
  guest: Guest,
  notes: chars(z.string(), 0, 500).nullish(),
  external_reference: doc(
    chars(z.string(), 1, 200).nullish(),
    'Provenance source.XXXX; source hotel, agency or corporate sets client_type',
    'hotel.ROOM-412',
  ),
  external_id: doc(chars(z.string(), 1, 200).nullish(), 'Idempotency key, unique per venue', 'pms-58213'),
  price_paid: doc(
    Money.extend({
      amount: doc(
        z
          .number({ invalid_type_error: 'must be a number' })
          .nonnegative('must not be negative')
          .max(MAX_PRICE, `must be at most ${MAX_PRICE}`),
        'Amount in major units, at most one billion',
        120,
      ),
    }),
    'Amount the partner charged; stored as the authoritative total_price',
    { amount: 120, currency: 'EUR' },
  ),
});

export const CancelBookingBody = z.object({
  reason: chars(z.string({ required_error: 'is required' }).trim(), 1, 500),
  cancelled_by: CancelledBy.default('partner'),
});

/** `{booking_id}` of the routes on one booking: a UUID, or `ext:` and the partner's external_id. */
export const BookingPath = z.object({
  booking_id: doc(z.string().min(1), 'Booking UUID, or ext:{external_id}', 'ext:pms-58213'),
});

export const bookingsContract = c.router({
  get: {
    method: 'GET',
    path: '/bookings/:booking_id',
    pathParams: BookingPath,
    responses: {
      200: doc(single(Booking), 'The booking as it is now'),
      ...commonErrors,
      403: doc(
        ScopeErrorBody,
        '`Insufficient scope` with `missing`, or `Forbidden`: a booking of another organisation, or of a venue your key is not restricted to',
        { error: ErrorText.Forbidden, request_id: REQUEST_ID },
      ),
      404: errorOf('`Booking not found`', ErrorText.NoSuchBooking),
      409: coded(
        '`AMBIGUOUS_EXTERNAL_ID`: the external id matches bookings at several venues your key can see; read it by UUID',
        ErrorText.AmbiguousExternalId,
        'This external id matches bookings at several venues; use the booking id',
      ),
    },
    summary: 'Read one booking (preview)',
    description:
      'Looks a booking up by its UUID or by `ext:{external_id}` (among the bookings your key can see), instead of paging a customer history. ' +
      'Webhooks (preview, see docs/guides/webhooks.md) push this same shape whenever the status changes.',
    // Beyond the spec, so a preview like the other routes on one booking.
    metadata: { scope: 'bookings:read', preview: true },
  },
  create: {
    method: 'POST',
    path: '/venues/:venue_id/bookings',
    pathParams: VenuePath,
    body: CreateBookingBody,
    responses: {
      201: doc(single(Booking), 'Created, status pending'),
      200: doc(
        single(Booking),
        'Replay of an earlier request with the same external_id (header Idempotent-Replayed: true)',
      ),
      ...commonErrors,
      ...badRequest('guest.email must be a valid email address', 'guest.email'),
      404: errorOf('`Venue not found`, or `Variant not found`', ErrorText.VariantNotFound),
      409: errorOf(
        '`slot_unavailable`: start_at is not a slot availability lists now (taken meanwhile, or never listed: check it against start_at of a slot); ' +
          'or `duplicate_external_id` while a first request with that external_id is in flight (retry it)',
        ErrorText.SlotUnavailable,
      ),
      422: errorOf(
        'price_paid.currency must equal the venue currency',
        'price_paid.currency must equal the venue currency (EUR)',
      ),
    },
    summary: 'Create a booking (preview)',
    description:
      'Books the slot starting at start_at. Atomic: the slot is re-checked and a room and therapists are reserved in one transaction. ' +
      'Send external_id to make retries safe.',
    metadata: { scope: 'bookings:write', preview: true },
  },
  cancel: {
    method: 'POST',
    path: '/bookings/:booking_id/cancel',
    pathParams: BookingPath,
    body: CancelBookingBody,
    responses: {
      200: doc(single(Booking), 'The cancelled booking, with its cancellation block'),
      ...commonErrors,
      ...badRequest('reason is required', 'reason'),
      403: doc(
        ScopeErrorBody.extend({ message: z.string().optional() }),
        '`Insufficient scope` with `missing`, or the code `FORBIDDEN` with a `message` (a booking your key cannot access)',
        {
          error: ErrorText.BookingForbidden,
          message: 'This booking belongs to a venue your key cannot access',
          request_id: REQUEST_ID,
        },
      ),
      404: coded('`BOOKING_NOT_FOUND`', ErrorText.BookingNotFound, 'Booking not found'),
      409: coded(
        '`AMBIGUOUS_EXTERNAL_ID`: the external id matches bookings at several venues; cancel by UUID',
        ErrorText.AmbiguousExternalId,
        'This external id matches bookings at several venues; cancel by booking id',
      ),
      422: coded(
        '`BOOKING_ALREADY_CANCELLED`: already cancelled, completed or no-show',
        ErrorText.BookingAlreadyCancelled,
        'Booking is already cancelled and cannot be cancelled',
      ),
    },
    summary: 'Cancel a booking (preview)',
    description: 'Applies the venue cancellation policy for cancelled_by and releases the room and therapists at once.',
    metadata: { scope: 'bookings:write', preview: true },
  },
});
