import { type BookingEvent, DashboardErrorText } from '@spa/contract/dashboard';
import type { z } from 'zod';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { OrganisationScope } from '../auth/organisation-scope.js';
import { findScopedBooking, listBookingEvents, listEligibleTherapists } from '../bookings/booking-detail.repository.js';
import { acceptBooking, finishBooking } from '../bookings/therapist-workflow.js';
import type { Db } from '../db/connect.js';
import { notFound } from '../errors/dashboard-errors.js';
import { isoFromDb } from '../lib/instant.js';
import type { Clock } from '../lib/clock.js';
import { listDeliveriesOf } from '../webhooks/delivery-log.repository.js';
import { toBookingDetail } from './booking.mapper.js';
import { toDelivery } from './delivery.mapper.js';

/** Deliveries a booking's page shows at most (a booking has a handful of events, each to at most 10 endpoints). */
const MAX_BOOKING_DELIVERIES = 100;

/** One booking of the scope in full; 404 `Booking not found` outside it. Deliveries only for an admin. */
export async function readBookingDetail(db: Db, scope: OrganisationScope, bookingId: string) {
  const row = await findScopedBooking(db, scope, bookingId);
  if (!row) throw bookingNotFound();
  const [events, deliveries, eligible] = await Promise.all([
    listBookingEvents(db, bookingId),
    scope.venueIds === null
      ? listDeliveriesOf(db, scope.organisationId, { bookingId }, { offset: 0, limit: MAX_BOOKING_DELIVERIES })
      : { rows: [] },
    listEligibleTherapists(db, bookingId),
  ]);
  return toBookingDetail(row, {
    events: events.map((e) => ({
      id: e.id,
      type: e.type as z.infer<typeof BookingEvent>['type'],
      created_at: isoFromDb(e.created_at),
    })),
    deliveries: deliveries.rows.map(toDelivery),
    eligible_therapists: eligible,
  });
}

interface StepInput {
  scope: OrganisationScope;
  bookingId: string;
  clock: Clock;
  audit: AuditTrail;
}

/**
 * A therapist's acceptance, recorded from the dashboard with the CLI's own service (same checks, same event),
 * within the person's scope: a booking outside it is 404, a therapist of another organisation is answered like
 * an unknown one.
 */
export async function recordAcceptance(db: Db, input: StepInput & { therapistId: string }) {
  await acceptBooking(db, {
    bookingId: input.bookingId,
    therapistId: input.therapistId,
    now: input.clock.now(),
    audit: input.audit,
    scope: input.scope,
    refuseMissing: bookingNotFound,
  });
  return readBookingDetail(db, input.scope, input.bookingId);
}

/** Completion or no-show, recorded from the dashboard with the CLI's own service, within the person's scope. */
export async function recordOutcome(db: Db, input: StepInput & { outcome: 'completed' | 'no_show' }) {
  await finishBooking(db, {
    bookingId: input.bookingId,
    outcome: input.outcome,
    now: input.clock.now(),
    audit: input.audit,
    scope: input.scope,
    refuseMissing: bookingNotFound,
  });
  return readBookingDetail(db, input.scope, input.bookingId);
}

const bookingNotFound = () => notFound(DashboardErrorText.BookingNotFound);
