import { type BookingsExportQuery, DashboardErrorText, dashboardContract } from '@spa/contract/dashboard';
import type { z } from 'zod';
import { initServer } from '@ts-rest/express';
import type { OrganisationScope } from '../auth/organisation-scope.js';
import { searchBookings } from '../bookings/booking-search.repository.js';
import type { Db } from '../db/connect.js';
import { notFound } from '../errors/dashboard-errors.js';
import { pageWindow, paginated } from '../http/pagination.js';
import { toBookingListItem } from './booking.mapper.js';
import { bookingsCsv } from './bookings-csv.js';
import {
  cancelFromDashboard,
  readBookingDetail,
  readRescheduleSlots,
  recordAcceptance,
  recordOutcome,
  rescheduleFromDashboard,
} from './bookings.service.js';
import { actorOf } from './dashboard-actor.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { readDesk } from './desk.service.js';
import { requireRole } from './guards.js';
import { visibleVenues } from './me.js';
import { readOverview } from './overview.service.js';
import { resolveVenueRefs } from './people.repository.js';
import { scopeOf, trailOf } from './resource-access.js';
import { livemodeOf } from './dashboard-mode.js';

/** Most bookings one export carries: an organisation's whole history for a filter fits, a runaway one does not. */
const EXPORT_LIMIT = 50_000;

/** The venue filter of a list, resolved in the scope: an unknown venue, or one a desk person is not listed for, is 404. */
async function venueFilter(db: Db, scope: OrganisationScope, venue: string | undefined) {
  if (venue === undefined) return undefined;
  const { ids } = await resolveVenueRefs(db, scope.organisationId, [venue]);
  const venueId = ids[0];
  if (!venueId || (scope.venueIds !== null && !scope.venueIds.includes(venueId)))
    throw notFound(DashboardErrorText.VenueNotFound);
  return venueId;
}

/** The organisation's bookings (a desk person's venues only), the desk and the overview; both roles. */
export function bookingsRouter(deps: DashboardDeps) {
  const { db, clock, availabilityCache } = deps;
  const order = (sort: 'upcoming' | 'start' | '-start' | '-created' | undefined) =>
    sort === undefined || sort === 'upcoming' ? { sort: 'upcoming' as const, now: clock.now().toString() } : { sort };
  const search = async (scope: OrganisationScope, query: z.infer<typeof BookingsExportQuery>) => ({
    venueId: await venueFilter(db, scope, query.venue),
    status: query.status,
    from: query.from,
    to: query.to,
    q: query.q,
  });
  return initServer().router(dashboardContract.bookings, {
    list: async ({ query, res }) => {
      const scope = scopeOf(res);
      const { rows, total } = await searchBookings(
        db,
        scope,
        await search(scope, query),
        pageWindow(query),
        order(query.sort),
      );
      return { status: 200, body: paginated(rows.map(toBookingListItem), query, total) };
    },
    export: async ({ query, res }) => {
      const scope = scopeOf(res);
      const { rows } = await searchBookings(
        db,
        scope,
        await search(scope, query),
        { offset: 0, limit: EXPORT_LIMIT },
        order(query.sort),
      );
      res.setHeader(
        'Content-Disposition',
        `attachment; filename="bookings-${clock.now().toString().slice(0, 10)}.csv"`,
      );
      return { status: 200, body: bookingsCsv(rows.map(toBookingListItem)) };
    },
    desk: async ({ res }) => {
      const actor = actorOf(res);
      const venues = await visibleVenues(db, actor);
      return { status: 200, body: { data: await readDesk(db, scopeOf(res), venues, clock.now()) } };
    },
    overview: async ({ res }) => {
      const actor = actorOf(res);
      const venues = await visibleVenues(db, actor);
      const overview = await readOverview(deps, {
        organisationId: actor.organisationId,
        venues,
        admin: actor.role === 'admin',
        livemode: livemodeOf(res),
        now: clock.now(),
      });
      return { status: 200, body: { data: overview } };
    },
    get: async ({ params, res }) => ({
      status: 200,
      body: { data: await readBookingDetail(db, scopeOf(res), params.id, clock.now()) },
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
    cancel: {
      middleware: [requireRole('admin')],
      handler: async ({ params, body, req, res }) => {
        const { venueId, detail } = await cancelFromDashboard(db, {
          scope: scopeOf(res),
          bookingId: params.id,
          body,
          clock,
          audit: trailOf(req, res, clock),
        });
        await availabilityCache?.settle([venueId]);
        return { status: 200, body: { data: detail } };
      },
    },
    slots: {
      middleware: [requireRole('admin')],
      handler: async ({ params, query, res }) => ({
        status: 200,
        body: { data: await readRescheduleSlots(db, scopeOf(res), params.id, query.date, clock.now()) },
      }),
    },
    reschedule: {
      middleware: [requireRole('admin')],
      handler: async ({ params, body, req, res }) => {
        const { venueId, detail } = await rescheduleFromDashboard(db, {
          scope: scopeOf(res),
          bookingId: params.id,
          body,
          clock,
          audit: trailOf(req, res, clock),
        });
        await availabilityCache?.settle([venueId]);
        return { status: 200, body: { data: detail } };
      },
    },
  });
}
