import { contract } from '@spa/contract';
import { initServer } from '@ts-rest/express';
import type { RouteDeps } from '../app-deps.js';
import { auditTrailOf } from '../audit/audit-trail.js';
import { principalOf } from '../auth/principal.js';
import { toBooking } from './booking.mapper.js';
import { cancelBooking } from './cancel-booking.js';
import { createBooking } from './create-booking.js';
import { getBooking } from './get-booking.js';
import { rescheduleBooking } from './reschedule-booking.js';
import { warnOnGuestNameMismatch } from './guest-name-check.js';

export function bookingsRouter({ db, clock, availabilityCache }: RouteDeps) {
  // A booking's commit changes its venue's availability (and, through its therapist, maybe others'): this process
  // drops what it holds and has its own notices before it answers, so the caller's next list is never stale.
  const settled = (venueId: string) => availabilityCache?.settle([venueId]);
  return initServer().router(contract.bookings, {
    get: async ({ params, res }) => {
      const booking = await getBooking(db, principalOf(res), params.booking_id);
      return { status: 200, body: { data: toBooking(booking) } };
    },
    create: async ({ params, body, req, res }) => {
      const { booking, replayed } = await createBooking({
        db,
        principal: principalOf(res),
        venueRef: params.venue_id,
        body,
        now: clock.now(),
      });
      await settled(booking.venue_id);
      if (replayed) {
        res.setHeader('Idempotent-Replayed', 'true');
        return { status: 200, body: { data: toBooking(booking) } };
      }
      void warnOnGuestNameMismatch(db, booking.customer_id, body.guest, req.log);
      return { status: 201, body: { data: toBooking(booking) } };
    },
    cancel: async ({ params, body, res }) => {
      const booking = await cancelBooking({
        db,
        principal: principalOf(res),
        bookingRef: params.booking_id,
        body,
        now: clock.now(),
      });
      await settled(booking.venue_id);
      return { status: 200, body: { data: toBooking(booking) } };
    },
    reschedule: async ({ params, body, req, res }) => {
      const principal = principalOf(res);
      const booking = await rescheduleBooking({
        db,
        principal,
        bookingRef: params.booking_id,
        body,
        now: clock.now(),
        audit: auditTrailOf(
          {
            actor: { type: 'api_key', keyId: principal.keyId },
            ip: req.ip ?? null,
            userAgent: req.get('user-agent') ?? null,
          },
          clock,
        ),
      });
      await settled(booking.venue_id);
      return { status: 200, body: { data: toBooking(booking) } };
    },
  });
}
