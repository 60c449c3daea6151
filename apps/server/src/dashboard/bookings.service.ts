import { type BookingEvent, DashboardErrorText } from '@spa/contract/dashboard';
import type { z } from 'zod';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { OrganisationScope } from '../auth/organisation-scope.js';
import { findScopedBooking, listBookingEvents, listEligibleTherapists } from '../bookings/booking-detail.repository.js';
import { acceptBooking, finishBooking, TherapistNotEligibleError } from '../bookings/therapist-workflow.js';
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
  if (!row) throw notFound(DashboardErrorText.BookingNotFound);
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
 * A therapist's acceptance, recorded from the dashboard with the CLI's own service (same checks, same event).
 * A therapist of another organisation is answered like an unknown one, so nothing of theirs shows through.
 */
export async function recordAcceptance(db: Db, input: StepInput & { therapistId: string }) {
  await visibleBooking(db, input.scope, input.bookingId);
  const therapist = await db
    .selectFrom('therapists')
    .select('id')
    .where('id', '=', input.therapistId)
    .where('organisation_id', '=', input.scope.organisationId)
    .executeTakeFirst();
  if (!therapist) throw new TherapistNotEligibleError(`No therapist ${input.therapistId}`);
  await acceptBooking(db, {
    bookingId: input.bookingId,
    therapistId: input.therapistId,
    now: input.clock.now(),
    audit: input.audit,
  });
  return readBookingDetail(db, input.scope, input.bookingId);
}

/** Completion or no-show, recorded from the dashboard with the CLI's own service. */
export async function recordOutcome(db: Db, input: StepInput & { outcome: 'completed' | 'no_show' }) {
  await visibleBooking(db, input.scope, input.bookingId);
  await finishBooking(db, {
    bookingId: input.bookingId,
    outcome: input.outcome,
    now: input.clock.now(),
    audit: input.audit,
  });
  return readBookingDetail(db, input.scope, input.bookingId);
}

/** A booking's venue never changes, so checking visibility before the step cannot be outrun. */
async function visibleBooking(db: Db, scope: OrganisationScope, bookingId: string) {
  if (!(await findScopedBooking(db, scope, bookingId))) throw notFound(DashboardErrorText.BookingNotFound);
}
