import { DashboardErrorText, dashboardContract } from '@spa/contract/dashboard';
import { initServer } from '@ts-rest/express';
import { searchBookings } from '../bookings/booking-search.repository.js';
import { notFound } from '../errors/dashboard-errors.js';
import { pageWindow, paginated } from '../http/pagination.js';
import { toBookingListItem } from './booking.mapper.js';
import { readBookingDetail, recordAcceptance, recordOutcome } from './bookings.service.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { resolveVenueRefs } from './people.repository.js';
import { scopeOf, trailOf } from './resource-access.js';

/** The organisation's bookings (a desk person's venues only) and the therapist workflow; both roles. */
export function bookingsRouter({ db, clock, availabilityCache }: DashboardDeps) {
  return initServer().router(dashboardContract.bookings, {
    list: async ({ query, res }) => {
      const scope = scopeOf(res);
      let venueId: string | undefined;
      if (query.venue !== undefined) {
        const { ids } = await resolveVenueRefs(db, scope.organisationId, [query.venue]);
        venueId = ids[0];
        if (!venueId || (scope.venueIds !== null && !scope.venueIds.includes(venueId)))
          throw notFound(DashboardErrorText.VenueNotFound);
      }
      const { rows, total } = await searchBookings(
        db,
        scope,
        { venueId, status: query.status, from: query.from, to: query.to, q: query.q },
        pageWindow(query),
      );
      return { status: 200, body: paginated(rows.map(toBookingListItem), query, total) };
    },
    get: async ({ params, res }) => ({
      status: 200,
      body: { data: await readBookingDetail(db, scopeOf(res), params.id) },
    }),
    accept: async ({ params, body, req, res }) => {
      const detail = await recordAcceptance(db, {
        scope: scopeOf(res),
        bookingId: params.id,
        therapistId: body.therapist_id,
        clock,
        audit: trailOf(req, res, clock),
      });
      await availabilityCache?.settle([]);
      return { status: 200, body: { data: detail } };
    },
    complete: async ({ params, req, res }) => {
      const input = { scope: scopeOf(res), bookingId: params.id, clock, audit: trailOf(req, res, clock) };
      const detail = await recordOutcome(db, { ...input, outcome: 'completed' });
      await availabilityCache?.settle([]);
      return { status: 200, body: { data: detail } };
    },
    noShow: async ({ params, req, res }) => {
      const input = { scope: scopeOf(res), bookingId: params.id, clock, audit: trailOf(req, res, clock) };
      const detail = await recordOutcome(db, { ...input, outcome: 'no_show' });
      await availabilityCache?.settle([]);
      return { status: 200, body: { data: detail } };
    },
  });
}
