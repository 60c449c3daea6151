import { contract } from '@spa/contract';
import { initServer } from '@ts-rest/express';
import type { RouteDeps } from '../app-deps.js';
import { principalOf } from '../auth/principal.js';
import { toBooking } from './booking.mapper.js';
import { acceptTestBooking, expireTestBooking, finishTestBooking } from './test-helpers.js';

export function testHelpersRouter({ db, clock, availabilityCache }: RouteDeps) {
  // A step that releases holds (complete, no-show) or moves one (accept) changes the test availability.
  const settled = (venueId: string) => availabilityCache?.settle([venueId]);
  const input = (res: Parameters<typeof principalOf>[0], bookingRef: string) => ({
    db,
    principal: principalOf(res),
    bookingRef,
    now: clock.now(),
  });
  const answer = async (booking: Awaited<ReturnType<typeof expireTestBooking>>) => {
    await settled(booking.venue_id);
    return { status: 200 as const, body: { data: toBooking(booking) } };
  };
  return initServer().router(contract.testHelpers, {
    accept: async ({ params, body, res }) =>
      answer(await acceptTestBooking({ ...input(res, params.booking_id), therapistId: body.therapist_id })),
    expire: async ({ params, res }) => answer(await expireTestBooking(input(res, params.booking_id))),
    complete: async ({ params, res }) =>
      answer(await finishTestBooking({ ...input(res, params.booking_id), outcome: 'completed' })),
    noShow: async ({ params, res }) =>
      answer(await finishTestBooking({ ...input(res, params.booking_id), outcome: 'no_show' })),
  });
}
