import { type BookingEvent, DashboardErrorText } from '@spa/contract/dashboard';
import type { z } from 'zod';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { OrganisationScope } from '../auth/organisation-scope.js';
import { findScopedBooking, listBookingEvents, listEligibleTherapists } from '../bookings/booking-detail.repository.js';
import { acceptBooking, finishBooking } from '../bookings/therapist-workflow.js';
import type { Db } from '../db/connect.js';
import { notFound, SentenceError } from '../errors/dashboard-errors.js';
import {
  BookingAlreadyCancelledError,
  BookingNotReschedulableError,
  RescheduleFeeAppliesError,
  SlotUnavailableError,
} from '../errors/domain-errors.js';
import { rescheduleBooking } from '../bookings/reschedule-booking.js';
import type { RescheduleBookingBody } from '@spa/contract';
import { toSlotJson } from '../availability/slot.mapper.js';
import { computeDays, loadSnapshot, toSnapshotVariant } from '../scheduling/index.js';
import { findVenueWithVariant } from '../venues/venues.repository.js';
import type { Principal } from '../auth/principal.js';
import { cancelBooking } from '../bookings/cancel-booking.js';
import { cancellationFee } from '../bookings/cancellation-policy.js';
import { LIVE_STATUSES } from '../lib/booking-status.js';
import { toMoney } from '../lib/money.js';
import type { CancelBookingBody } from '@spa/contract';
import { Temporal } from 'temporal-polyfill';
import { instantFromDb, isoFromDb } from '../lib/instant.js';
import type { Clock } from '../lib/clock.js';
import { listDeliveriesOf } from '../webhooks/delivery-log.repository.js';
import { toBookingDetail } from './booking.mapper.js';
import { toDelivery } from './delivery.mapper.js';

/** Deliveries a booking's page shows at most (a booking has a handful of events, each to at most 10 endpoints). */
const MAX_BOOKING_DELIVERIES = 100;

/**
 * One booking of the scope in full; 404 `Booking not found` outside it. Deliveries only for an admin; the fee a
 * cancellation now would cost, per side, while it can still be cancelled.
 */
export async function readBookingDetail(db: Db, scope: OrganisationScope, bookingId: string, now: Temporal.Instant) {
  const row = await findScopedBooking(db, scope, bookingId);
  if (!row) throw bookingNotFound();
  const [events, deliveries, eligible, venue] = await Promise.all([
    listBookingEvents(db, bookingId),
    scope.venueIds === null
      ? listDeliveriesOf(
          db,
          scope.organisationId,
          scope.livemode,
          { bookingId },
          { offset: 0, limit: MAX_BOOKING_DELIVERIES },
        )
      : { rows: [] },
    listEligibleTherapists(db, bookingId),
    db.selectFrom('venues').select('cancellation_policy').where('id', '=', row.venue_id).executeTakeFirstOrThrow(),
  ]);
  const quote = (cancelledBy: 'partner' | 'customer') => {
    const fee = cancellationFee({
      policy: venue.cancellation_policy,
      cancelledBy,
      totalMinor: Number(row.total_price_minor),
      currency: row.currency,
      startAt: instantFromDb(row.start_at),
      now,
    });
    return { fee: toMoney(fee.feeMinor, row.currency), fee_percent: fee.feePercent, policy: fee.policy };
  };
  return toBookingDetail(row, {
    events: events.map((e) => ({
      id: e.id,
      type: e.type as z.infer<typeof BookingEvent>['type'],
      created_at: isoFromDb(e.created_at),
    })),
    deliveries: deliveries.rows.map(toDelivery),
    eligible_therapists: eligible,
    cancellation_quote: LIVE_STATUSES.includes(row.status)
      ? { partner: quote('partner'), customer: quote('customer') }
      : null,
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
  return readBookingDetail(db, input.scope, input.bookingId, input.clock.now());
}

/**
 * Completion or no-show, recorded from the dashboard with the CLI's own service, within the person's scope. Before
 * the start it is refused in the desk's terms (the booking's number, its start in the venue's own time), not the
 * operator's (an id and a UTC instant).
 */
export async function recordOutcome(db: Db, input: StepInput & { outcome: 'completed' | 'no_show' }) {
  const row = await findScopedBooking(db, input.scope, input.bookingId);
  if (!row) throw bookingNotFound();
  const start = instantFromDb(row.start_at);
  if (row.status === 'confirmed' && Temporal.Instant.compare(input.clock.now(), start) < 0) {
    const local = start.toZonedDateTimeISO(row.venue_timezone ?? 'UTC');
    const when = `${local.toPlainDate().toString()} at ${local.toPlainTime().toString({ smallestUnit: 'minute' })}`;
    throw new SentenceError(
      409,
      `Booking #${row.booking_number} starts on ${when} (${row.venue_name} time): mark it ` +
        `${input.outcome === 'completed' ? 'completed' : 'a no-show'} once it has started.`,
      'not_started',
    );
  }
  await finishBooking(db, {
    bookingId: input.bookingId,
    outcome: input.outcome,
    now: input.clock.now(),
    audit: input.audit,
    scope: input.scope,
    refuseMissing: bookingNotFound,
  });
  return readBookingDetail(db, input.scope, input.bookingId, input.clock.now());
}

/**
 * Cancels a booking of the scope as the partner API does (the venue's tiers for `cancelled_by`, the room and
 * therapists released, `booking.cancelled` emitted), recorded in the audit log in the same transaction.
 */
export async function cancelFromDashboard(db: Db, input: StepInput & { body: z.infer<typeof CancelBookingBody> }) {
  const row = await findScopedBooking(db, input.scope, input.bookingId);
  if (!row) throw bookingNotFound();
  try {
    await cancelBooking({
      db,
      principal: dashboardPrincipal(input.scope),
      bookingRef: row.id,
      body: input.body,
      now: input.clock.now(),
      audit: input.audit,
    });
  } catch (error) {
    if (error instanceof BookingAlreadyCancelledError)
      throw new SentenceError(
        409,
        `Booking #${row.booking_number} is ${row.status.replace('_', ' ')}: it can no longer be cancelled.`,
        'status',
      );
    throw error;
  }
  return {
    venueId: row.venue_id,
    detail: await readBookingDetail(db, input.scope, input.bookingId, input.clock.now()),
  };
}

/** The partner services' caller for a change made from the dashboard: the organisation, in the request's mode. */
function dashboardPrincipal(scope: OrganisationScope): Principal {
  return {
    keyId: 'dashboard',
    organisationId: scope.organisationId,
    venueId: null,
    scopes: new Set(),
    rateLimitPerMin: null,
    livemode: scope.livemode,
  };
}

/**
 * The slots the booking's variant has for its guest count at its venue on one venue-local day, computed as the
 * partner availability computes them (the cache is the partner route's; a person picking a time asks rarely).
 */
export async function readRescheduleSlots(
  db: Db,
  scope: OrganisationScope,
  bookingId: string,
  date: string,
  now: Temporal.Instant,
) {
  const row = await findScopedBooking(db, scope, bookingId);
  if (!row) throw bookingNotFound();
  const found = await findVenueWithVariant(db, { id: row.venue_id }, row.variant_id);
  if (!found?.variant) throw new Error(`Booking ${row.id} has no variant ${row.variant_id}`);
  const { variant, ...venue } = found;
  const day = Temporal.PlainDate.from(date);
  const period = { from: day, to: day };
  const snapshotVariant = toSnapshotVariant(variant);
  const snapshot = await loadSnapshot(db, venue, snapshotVariant, period, row.livemode);
  const days = computeDays(snapshot, period, now, row.guest_count);
  return {
    mode: 'day' as const,
    venue_id: venue.id,
    treatment_id: variant.treatment_id,
    variant_id: variant.id,
    date,
    slots: (days[0]?.slots ?? []).map(toSlotJson),
  };
}

/**
 * A move to another slot with the partner reschedule (same checks, holds, event), audited as the person; its
 * refusals as sentences a person can act on.
 */
export async function rescheduleFromDashboard(
  db: Db,
  input: StepInput & { body: z.infer<typeof RescheduleBookingBody> },
) {
  const row = await findScopedBooking(db, input.scope, input.bookingId);
  if (!row) throw bookingNotFound();
  const name = `Booking #${row.booking_number}`;
  try {
    await rescheduleBooking({
      db,
      principal: dashboardPrincipal(input.scope),
      bookingRef: row.id,
      body: input.body,
      now: input.clock.now(),
      audit: input.audit,
    });
  } catch (error) {
    if (error instanceof SlotUnavailableError)
      throw new SentenceError(409, `That time is no longer free for ${name}: choose another slot.`, 'other');
    if (error instanceof BookingAlreadyCancelledError || error instanceof BookingNotReschedulableError)
      throw new SentenceError(409, `${name} is ${row.status.replace('_', ' ')}: it can no longer be moved.`, 'status');
    if (error instanceof RescheduleFeeAppliesError)
      throw new SentenceError(
        422,
        `${name} is within its cancellation fee window: it can no longer be moved, only cancelled.`,
        'other',
      );
    throw error;
  }
  return {
    venueId: row.venue_id,
    detail: await readBookingDetail(db, input.scope, input.bookingId, input.clock.now()),
  };
}

const bookingNotFound = () => notFound(DashboardErrorText.BookingNotFound);
