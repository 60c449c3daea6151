import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { chars, doc, Money, named, offsetInstant, openEnum, single, UtcInstant, Uuid } from './common.js';
import {
  AmbiguousExternalIdErrorBody,
  badRequest,
  bodyErrors,
  BookingAlreadyCancelledErrorBody,
  BookingForbiddenErrorBody,
  BookingNotFoundErrorBody,
  BookingNotReschedulableErrorBody,
  commonErrors,
  CurrencyMismatchErrorBody,
  DuplicateExternalIdErrorBody,
  failure,
  ForbiddenErrorBody,
  InsufficientScopeErrorBody,
  NoSuchBookingErrorBody,
  RescheduleFeeAppliesErrorBody,
  SlotUnavailableErrorBody,
  variantNotFound,
  venueForbidden,
} from './errors.js';
import { Example } from './examples.js';
import { VenuePath } from './venues.js';
import { statuses } from './statuses.js';

const c = initContract();

export const BookingStatus = named(
  'BookingStatus',
  openEnum(
    ['pending', 'awaiting_therapist', 'confirmed', 'completed', 'no_show', 'cancelled'],
    'pending on creation; confirmed once a therapist accepts; awaiting_therapist when none has accepted in time',
    'treat an unknown status as not final and read the booking again later',
    'pending',
  ),
);

export const CancelledBy = named(
  'CancelledBy',
  openEnum(
    ['partner', 'customer'],
    'Who cancelled: the partner or the customer',
    'in an answer, show an unknown value as is',
    'partner',
  ),
);

export const ClientType = named(
  'ClientType',
  openEnum(
    ['hotel', 'agency', 'corporate', 'external'],
    'Derived from the source of external_reference; external when there is none or it is another',
    'treat an unknown value as external',
    'hotel',
  ),
);

export const Cancellation = named(
  'Cancellation',
  doc(
    z.object({
      fee: doc(Money, 'The fee charged: total_price times the percent of the tier applied', {
        amount: 0,
        currency: 'EUR',
      }),
      policy: doc(z.string(), 'The tier applied, in one English sentence', Example.cancellationPolicy),
      cancelled_at: doc(UtcInstant, 'When it was cancelled', Example.cancelledAt),
      cancelled_by: CancelledBy,
      reason: doc(z.string(), 'The reason given', 'Guest changed plans'),
    }),
    'How the booking was cancelled: when, by whom, why, and the fee of the policy tier applied',
  ),
);

/** E.164: a plus, a country code and up to 15 digits in all. */
export const E164_PHONE = /^\+[1-9]\d{6,14}$/;
/** ISO 639-1: two lower-case letters. */
export const LANGUAGE_CODE = /^[a-z]{2}$/;

/** The example booking of the reference: what POST /bookings answers for its own example request. */
const PENDING_EXAMPLE = {
  id: Example.bookingId,
  booking_number: 10042,
  status: 'pending',
  venue_id: Example.venueId,
  treatment_id: Example.treatmentId,
  variant_id: Example.variantId,
  customer_id: Example.customerId,
  start_at: Example.startAt,
  end_at: Example.endAt,
  guest_count: 1,
  therapists_accepted: 0,
  notes: 'Allergic to nuts',
  external_reference: Example.externalReference,
  external_id: Example.externalId,
  client_type: 'hotel',
  total_price: { amount: 120, currency: 'EUR' },
  payment_method: 'partner_billed',
  payment_status: 'paid',
  created_at: Example.createdAt,
  updated_at: Example.createdAt,
  cancellation: null,
};

export const Booking = named(
  'Booking',
  doc(
    z.object({
      id: doc(Uuid, 'Booking UUID', Example.bookingId),
      booking_number: doc(z.number().int().min(1), 'Human-facing number, unique and increasing', 10042),
      status: BookingStatus,
      venue_id: doc(Uuid, 'Venue UUID', Example.venueId),
      treatment_id: doc(Uuid, 'Treatment UUID', Example.treatmentId),
      variant_id: doc(Uuid, 'Variant UUID', Example.variantId),
      customer_id: doc(Uuid, 'Customer UUID', Example.customerId),
      start_at: doc(UtcInstant, 'Start', Example.startAt),
      end_at: doc(UtcInstant, 'End: start_at plus the variant duration', Example.endAt),
      guest_count: doc(z.number().int().min(1).max(20), 'Guests, 1 to 20', 1),
      therapists_accepted: doc(
        z.number().int().min(0).max(20),
        'How many distinct therapists have accepted: one per guest is needed, and the booking is confirmed when this reaches guest_count',
        0,
      ),
      notes: doc(z.string().nullable(), 'Free text for the venue', 'Allergic to nuts'),
      external_reference: doc(z.string().nullable(), 'Provenance, source.XXXX', Example.externalReference),
      external_id: doc(z.string().nullable(), "Partner's idempotency key, unique per venue", Example.externalId),
      client_type: ClientType,
      total_price: Money,
      payment_method: openEnum(
        ['partner_billed'],
        'The partner bills the guest; the venue bills the partner',
        'show it as is',
        'partner_billed',
      ),
      payment_status: openEnum(['paid'], 'Paid through the partner', 'show it as is', 'paid'),
      created_at: doc(UtcInstant, 'Created', Example.createdAt),
      updated_at: doc(
        UtcInstant,
        'Last changed; a webhook receiver drops events older than what it has',
        Example.createdAt,
      ),
      cancellation: doc(Cancellation.nullable(), 'null unless the booking is cancelled'),
    }),
    'A booking, as every endpoint and webhook returns it',
    PENDING_EXAMPLE,
  ),
);

export const Guest = named(
  'Guest',
  doc(
    z.object({
      first_name: doc(chars(z.string({ required_error: 'is required' }).trim(), 1, 100), 'First name', 'Claire'),
      last_name: doc(chars(z.string({ required_error: 'is required' }).trim(), 1, 100), 'Last name', 'Martin'),
      email: doc(
        z.string({ required_error: 'is required' }).trim().email('must be a valid email address').max(254),
        'Guest email. The customer is found by (organisation, email without case) or created: a known address keeps its stored customer and name (a different name sent is logged for the operator, not stored), so give each guest their own address; guests sharing one address become one customer',
        'claire.martin@example.com',
      ),
      phone: doc(
        z.string().regex(E164_PHONE, 'must be an E.164 phone number such as +33612345678').nullish(),
        'E.164',
        '+33612345600',
      ),
      language: doc(
        z.string().regex(LANGUAGE_CODE, 'must be an ISO 639-1 code such as fr').nullish(),
        'ISO 639-1, default fr',
        'fr',
      ),
    }),
    'Who the treatment is for: found by email among the customers of your organisation, or created',
  ),
);

/** The largest price_paid.amount taken: far above any treatment, and exact in minor units for every currency. */
export const MAX_PRICE = 1_000_000_000;

export const CreateBookingBody = named(
  'CreateBookingRequest',
  doc(
    z.object({
      variant_id: doc(Uuid, 'Variant UUID (from the treatments list)', Example.variantId),
      start_at: doc(
        offsetInstant('must be an ISO 8601 instant with an offset or Z'),
        'Slot start exactly as listed by availability (start_at), with an offset or Z; must be in the future',
        Example.startAt,
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
      notes: doc(chars(z.string(), 0, 500).nullish(), 'Free text for the venue', 'Allergic to nuts'),
      external_reference: doc(
        chars(z.string(), 1, 200).nullish(),
        'Provenance source.XXXX; source hotel, agency or corporate sets client_type',
        Example.externalReference,
      ),
      external_id: doc(
        chars(z.string(), 1, 200).nullish(),
        'Idempotency key, unique per venue: a repeat answers 200 with the original booking',
        Example.externalId,
      ),
      // Money itself, a plain reference (one Money class in every generated client, no subclass for a use-site
      // description): the bound an answer's Money does not have is in the description of the request.
      price_paid: Money.superRefine((money, ctx) => {
        if (money.amount > MAX_PRICE) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['amount'], message: `must be at most ${MAX_PRICE}` });
        }
      }),
    }),
    'What POST /v1/venues/{venue_id}/bookings takes: a slot of availability, the guest, and what the partner charged ' +
      `(price_paid: in the venue currency, at most ${MAX_PRICE}; stored as the authoritative total_price)`,
  ),
);

export const CancelBookingBody = named(
  'CancelBookingRequest',
  doc(
    z.object({
      reason: doc(chars(z.string({ required_error: 'is required' }).trim(), 1, 500), 'Why', 'Guest changed plans'),
      // Not the open CancelledBy of answers: a request takes these two values only.
      cancelled_by: doc(
        z.enum(['partner', 'customer']).default('partner'),
        'Whose cancellation tiers apply: the partner (the default) or the customer',
        'partner',
      ),
    }),
    'What POST /v1/bookings/{booking_id}/cancel takes',
    { reason: 'Guest changed plans', cancelled_by: 'partner' },
  ),
);

export const RescheduleBookingBody = named(
  'RescheduleBookingRequest',
  doc(
    z.object({
      start_at: doc(
        z
          .string({ required_error: 'is required' })
          .datetime({ offset: true, message: 'must be an ISO 8601 instant with an offset or Z' }),
        'The new start, exactly as availability lists it (start_at of a slot), with an offset or Z; must be in the future',
        Example.startAt,
      ),
    }),
    'What POST /v1/bookings/{booking_id}/reschedule takes: the new start; variant, guests and price stay',
    { start_at: Example.startAt },
  ),
);

export const BookingResponse = single('BookingResponse', Booking, 'The booking');

/** `{booking_id}` of the routes on one booking: a UUID, or `ext:` and the partner's external_id. */
export const BookingPath = z.object({
  booking_id: doc(
    z.string().min(1),
    'Booking UUID, or ext:{external_id} with the external id percent-encoded as a path segment (encodeURIComponent: ext:pms%2F58213 for pms/58213)',
    `ext:${Example.externalId}`,
  ),
});

export const bookingsContract = c.router({
  get: {
    method: 'GET',
    path: '/bookings/:booking_id',
    pathParams: BookingPath,
    responses: statuses({
      200: doc(BookingResponse, 'The booking as it is now'),
      ...commonErrors,
      403: failure(
        '`Insufficient scope` with `missing`, or `Forbidden`: a booking of another organisation, or of a venue your key is not restricted to',
        InsufficientScopeErrorBody,
        ForbiddenErrorBody,
      ),
      404: failure('`Booking not found`', NoSuchBookingErrorBody),
      409: failure(
        '`AMBIGUOUS_EXTERNAL_ID`: the external id matches bookings at several venues your key can see; read it by UUID',
        AmbiguousExternalIdErrorBody,
      ),
    }),
    summary: 'Read one booking',
    description:
      'Looks a booking up by its UUID or by `ext:{external_id}` (among the bookings your key can see), instead of paging a customer history. ' +
      'Webhooks (preview, see docs/guides/webhooks.md) push this same shape whenever the status changes.',
    // Beyond the spec ("Reading one booking" in the decisions of record), under bookings:read, which is available: not a preview.
    metadata: { operationId: 'getBooking', scope: 'bookings:read', tag: 'bookings' },
  },
  create: {
    method: 'POST',
    path: '/venues/:venue_id/bookings',
    pathParams: VenuePath,
    body: CreateBookingBody,
    responses: statuses({
      201: doc(BookingResponse, 'Created, status pending'),
      200: doc(
        BookingResponse,
        'Replay of an earlier request with the same external_id (header Idempotent-Replayed: true)',
      ),
      ...commonErrors,
      ...bodyErrors,
      ...badRequest('guest.email must be a valid email address', 'guest.email'),
      403: venueForbidden,
      404: variantNotFound,
      409: failure(
        '`slot_unavailable`: start_at is not a slot availability lists now (taken meanwhile, or never listed: check it against start_at of a slot); ' +
          'or `duplicate_external_id` while a first request with that external_id is in flight (retry it)',
        SlotUnavailableErrorBody,
        DuplicateExternalIdErrorBody,
      ),
      422: failure('price_paid.currency must equal the venue currency', CurrencyMismatchErrorBody),
    }),
    summary: 'Create a booking (preview)',
    description:
      'Books the slot starting at start_at. Atomic: the slot is re-checked and a room and therapists are reserved in one transaction. ' +
      'The booking starts pending; if no therapist accepts it within the venue therapist_response_minutes (default 15) it becomes awaiting_therapist, and a therapist may still accept it. ' +
      'Safe to retry only with external_id: the same external_id at the same venue returns the original booking (200, Idempotent-Replayed: true); without it a retry may book twice.',
    metadata: { operationId: 'createBooking', scope: 'bookings:write', tag: 'bookings', preview: true },
  },
  cancel: {
    method: 'POST',
    path: '/bookings/:booking_id/cancel',
    pathParams: BookingPath,
    body: CancelBookingBody,
    responses: statuses({
      200: doc(BookingResponse, 'The cancelled booking, with its cancellation block', {
        data: {
          ...PENDING_EXAMPLE,
          status: 'cancelled',
          updated_at: Example.cancelledAt,
          cancellation: {
            fee: { amount: 0, currency: 'EUR' },
            policy: Example.cancellationPolicy,
            cancelled_at: Example.cancelledAt,
            cancelled_by: 'partner',
            reason: 'Guest changed plans',
          },
        },
      }),
      ...commonErrors,
      ...bodyErrors,
      ...badRequest('reason is required', 'reason'),
      403: failure(
        '`Insufficient scope` with `missing`, or the code `FORBIDDEN` with a `message` (a booking your key cannot access)',
        InsufficientScopeErrorBody,
        BookingForbiddenErrorBody,
      ),
      404: failure('`BOOKING_NOT_FOUND`', BookingNotFoundErrorBody),
      409: failure(
        '`AMBIGUOUS_EXTERNAL_ID`: the external id matches bookings at several venues; cancel by UUID',
        AmbiguousExternalIdErrorBody,
      ),
      422: failure(
        '`BOOKING_ALREADY_CANCELLED`: already cancelled, completed or no-show',
        BookingAlreadyCancelledErrorBody,
      ),
    }),
    summary: 'Cancel a booking (preview)',
    description:
      'Applies the venue cancellation policy for cancelled_by and releases the room and therapists at once. ' +
      'Safe to retry: a repeat changes nothing and answers 422 BOOKING_ALREADY_CANCELLED, which after a lost response means the first call succeeded.',
    metadata: { operationId: 'cancelBooking', scope: 'bookings:write', tag: 'bookings', preview: true },
  },
  reschedule: {
    method: 'POST',
    path: '/bookings/:booking_id/reschedule',
    pathParams: BookingPath,
    body: RescheduleBookingBody,
    responses: statuses({
      200: doc(
        BookingResponse,
        'The booking at its new time: same id, booking_number, external_id, customer, variant, guests and price',
      ),
      ...commonErrors,
      ...bodyErrors,
      ...badRequest('start_at must be in the future', 'start_at'),
      403: failure(
        '`Insufficient scope` with `missing`, or the code `FORBIDDEN` with a `message` (a booking your key cannot access)',
        InsufficientScopeErrorBody,
        BookingForbiddenErrorBody,
      ),
      404: failure('`BOOKING_NOT_FOUND`', BookingNotFoundErrorBody),
      409: failure(
        '`slot_unavailable`: start_at is not a slot this booking could take now (its own room and therapists do not count against it); ' +
          'or `AMBIGUOUS_EXTERNAL_ID`: the external id matches bookings at several venues; reschedule by UUID',
        SlotUnavailableErrorBody,
        AmbiguousExternalIdErrorBody,
      ),
      422: failure(
        '`BOOKING_ALREADY_CANCELLED`; `BOOKING_NOT_RESCHEDULABLE`: it has started, or is completed or no-show; ' +
          '`RESCHEDULE_FEE_APPLIES` with `fee`: a partner cancellation now would cost that fee, so cancel instead',
        BookingAlreadyCancelledErrorBody,
        BookingNotReschedulableErrorBody,
        RescheduleFeeAppliesErrorBody,
      ),
    }),
    summary: 'Reschedule a booking (preview)',
    description:
      'Moves the booking to another slot of the same variant for the same guests, in one transaction: its room and therapists are released and the new ones reserved under the same rules as a create, so it is never double-booked and its own holds never block it (a move by 30 minutes overlapping its old time works). ' +
      'Allowed while the booking is pending, awaiting_therapist or confirmed, has not started, and a partner cancellation would cost no fee. ' +
      'A confirmed booking keeps its therapists when each is still qualified, on shift and free at the new time; otherwise it is pending again, offered to the therapists free then, and its response window restarts. ' +
      'Emits booking.rescheduled with the previous start and end. Safe to retry: the same start_at again answers 200 and changes nothing.',
    metadata: { operationId: 'rescheduleBooking', scope: 'bookings:write', tag: 'bookings', preview: true },
  },
});
