import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { doc, named, Uuid } from './common.js';
import { BookingPath, BookingResponse } from './bookings.js';
import {
  commonErrors,
  bodyErrors,
  ErrorBody,
  failure,
  ForbiddenErrorBody,
  InsufficientScopeErrorBody,
  NoSuchBookingErrorBody,
  TestModeOnlyErrorBody,
} from './errors.js';
import { Example } from './examples.js';
import { statuses } from './statuses.js';

const c = initContract();

export const AcceptTestBookingBody = named(
  'AcceptTestBookingBody',
  doc(
    z
      .object({
        therapist_id: doc(
          Uuid.optional(),
          'The therapist who accepts; omitted, one of those the booking was offered to and who is free is chosen',
          '7d3e0c52-9a4b-4f1e-8c6d-2b5a9e1f3c70',
        ),
      })
      .strict(),
    'Who accepts the test booking',
  ),
);

/** A refusal in a sentence: the booking's status does not allow the step, or no therapist can take it. */
export const TestHelperRefusalBody = named(
  'TestHelperRefusal',
  doc(
    ErrorBody.extend({ error: doc(z.string(), 'One sentence saying why the step cannot be taken now') }),
    "409 or 422: the booking's status does not allow this step, or the therapist cannot take it",
    {
      error: 'Booking 3f1c… is confirmed; only pending or awaiting_therapist bookings can be accepted',
      request_id: Example.requestId,
    },
  ),
);

const helperForbidden = failure(
  '`Test mode only` (a live key: test helpers act on test bookings only), `Insufficient scope` with `missing`, or `Forbidden` (a booking of a venue your key is not restricted to)',
  TestModeOnlyErrorBody,
  InsufficientScopeErrorBody,
  ForbiddenErrorBody,
);

const helperResponses = (done: string) =>
  statuses({
    200: doc(BookingResponse, done),
    ...commonErrors,
    ...bodyErrors,
    403: helperForbidden,
    404: failure('`Booking not found` (among the test bookings your key can see)', NoSuchBookingErrorBody),
    409: failure("The booking's status does not allow this step; the sentence says which", TestHelperRefusalBody),
    422: failure('The therapist cannot take the booking (not offered it, or lacks a skill)', TestHelperRefusalBody),
  });

const TEST_ONLY =
  'Test keys only (sk_test_): it moves a test booking as the venue or the server would, with the same checks and the same webhook event, so an integration can be rehearsed without a venue.';

/**
 * What happens at the venue, on demand, for test bookings: a therapist accepts, the response time runs out, the
 * treatment takes place, the guest does not come. Each step runs the server's own code for it and emits its event.
 */
export const testHelpersContract = c.router({
  accept: {
    method: 'POST',
    path: '/test_helpers/bookings/:booking_id/accept',
    pathParams: BookingPath,
    body: AcceptTestBookingBody,
    responses: helperResponses('The booking, confirmed (event booking.confirmed)'),
    summary: 'Test mode: a therapist accepts the booking',
    description: `A pending or awaiting_therapist test booking becomes confirmed, assigned to the therapist. ${TEST_ONLY}`,
    metadata: { operationId: 'testHelperAcceptBooking', scope: 'bookings:write', tag: 'test_helpers' },
  },
  expire: {
    method: 'POST',
    path: '/test_helpers/bookings/:booking_id/expire',
    pathParams: BookingPath,
    body: c.noBody(),
    responses: helperResponses('The booking, awaiting_therapist (event booking.awaiting_therapist)'),
    summary: "Test mode: the therapists' response time runs out now",
    description: `A pending test booking becomes awaiting_therapist at once, as it would after the venue's therapist_response_minutes. ${TEST_ONLY}`,
    metadata: { operationId: 'testHelperExpireBooking', scope: 'bookings:write', tag: 'test_helpers' },
  },
  complete: {
    method: 'POST',
    path: '/test_helpers/bookings/:booking_id/complete',
    pathParams: BookingPath,
    body: c.noBody(),
    responses: helperResponses('The booking, completed (event booking.completed)'),
    summary: 'Test mode: the treatment took place',
    description: `A confirmed test booking that has started becomes completed; its room and therapist are released. ${TEST_ONLY}`,
    metadata: { operationId: 'testHelperCompleteBooking', scope: 'bookings:write', tag: 'test_helpers' },
  },
  noShow: {
    method: 'POST',
    path: '/test_helpers/bookings/:booking_id/no_show',
    pathParams: BookingPath,
    body: c.noBody(),
    responses: helperResponses('The booking, no_show (event booking.no_show)'),
    summary: 'Test mode: the guest did not come',
    description: `A confirmed test booking becomes no_show, even before its start (a live one only once it started); its room and therapist are released. ${TEST_ONLY}`,
    metadata: { operationId: 'testHelperNoShowBooking', scope: 'bookings:write', tag: 'test_helpers' },
  },
});
