import { Temporal } from 'temporal-polyfill';
import type { Transaction } from 'kysely';
import type { Db } from '../db/connect.js';
import type { BookingStatus, Database } from '../db/schema.js';
import { instantFromDb, tstzrange } from '../lib/instant.js';
import { isLostRace } from '../db/pg-errors.js';
import type { AuditAction } from '@spa/contract/dashboard';
import type { AuditTrail } from '../audit/audit-trail.js';
import { OperatorError } from '../errors/operator-error.js';
import { recordBookingEvent } from '../webhooks/record-event.js';
import {
  holdKeys,
  lockBooking,
  lockHolds,
  releaseReservations,
  therapistsBusyElsewhere,
} from './bookings.repository.js';

/** A refusal of a booking workflow step, for the operator (the CLI prints it as any OperatorError). */
export class BookingWorkflowError extends OperatorError {}

/** The booking is not in a state the step applies to, or someone else got there first (409 in the dashboard). */
export class BookingStateConflictError extends BookingWorkflowError {
  override readonly status = 409;
}

/** The therapist cannot take the booking: not offered it, or missing a skill (422 in the dashboard). */
export class TherapistNotEligibleError extends BookingWorkflowError {
  override readonly status = 422;
}

/** Who records a workflow step: the audit trail of the CLI's operator or of a dashboard person. */
interface Audited {
  audit?: AuditTrail | undefined;
}

/**
 * A therapist accepts the broadcast (docs/api.md, "Booking lifecycle"): pending or awaiting_therapist becomes confirmed and the
 * booking is assigned to them. If they were not the tentatively reserved therapist, the reservation moves
 * to them, still guarded by the exclusion constraint and the per-therapist lock of the inter-venue buffer.
 */
export async function acceptBooking(
  db: Db,
  input: { bookingId: string; therapistId: string; now: Temporal.Instant } & Audited,
) {
  try {
    return await db.transaction().execute(async (trx) => {
      const booking = await lockBooking(trx, input.bookingId);
      if (!booking) throw new BookingWorkflowError(`No booking ${input.bookingId}`);
      if (booking.status !== 'pending' && booking.status !== 'awaiting_therapist') {
        throw new BookingStateConflictError(
          `Booking ${booking.id} is ${booking.status}; only pending or awaiting_therapist bookings can be accepted`,
        );
      }
      const offer = await trx
        .selectFrom('booking_offers')
        .select('therapist_id')
        .where('booking_id', '=', booking.id)
        .where('therapist_id', '=', input.therapistId)
        .executeTakeFirst();
      if (!offer) throw await notOffered(trx, booking, input.therapistId);

      const reserved = await trx
        .selectFrom('therapist_reservations')
        .select(['therapist_id', 'venue_id', 'during'])
        .where('booking_id', '=', booking.id)
        .execute();
      if (!reserved.some((r) => r.therapist_id === input.therapistId)) {
        const start = instantFromDb(booking.start_at);
        const end = instantFromDb(booking.end_at);
        const venue = await trx
          .selectFrom('venues')
          .select('inter_venue_buffer_minutes')
          .where('id', '=', booking.venue_id)
          .executeTakeFirstOrThrow();
        const buffer = { minutes: venue.inter_venue_buffer_minutes };
        await lockHolds(
          trx,
          holdKeys('therapist', input.therapistId, { start: start.subtract(buffer), end: end.add(buffer) }),
        );
        const busy = await therapistsBusyElsewhere(trx, {
          therapistIds: [input.therapistId],
          venueId: booking.venue_id,
          start,
          end,
          bufferMinutes: venue.inter_venue_buffer_minutes,
        });
        if (busy.length) throw notFree(input.therapistId);
        // The accepting therapist takes the place of one tentative therapist.
        const replaced = reserved[0];
        if (replaced) {
          await trx
            .deleteFrom('therapist_reservations')
            .where('booking_id', '=', booking.id)
            .where('therapist_id', '=', replaced.therapist_id)
            .execute();
        }
        await trx
          .insertInto('therapist_reservations')
          .values({
            booking_id: booking.id,
            therapist_id: input.therapistId,
            venue_id: booking.venue_id,
            during: tstzrange(start, end),
          })
          .execute();
      }
      await trx
        .updateTable('booking_offers')
        .set({ accepted_at: input.now.toString() })
        .where('booking_id', '=', booking.id)
        .where('therapist_id', '=', input.therapistId)
        .execute();
      const confirmed = await trx
        .updateTable('bookings')
        .set({ status: 'confirmed', therapist_id: input.therapistId, updated_at: input.now.toString() })
        .where('id', '=', booking.id)
        .returning(['id', 'status', 'therapist_id'])
        .executeTakeFirstOrThrow();
      await recordBookingEvent(trx, 'booking.confirmed', booking.id);
      await recordStep(trx, input.audit, booking, 'booking.acceptance_recorded');
      return confirmed;
    });
  } catch (error) {
    if (isLostRace(error)) throw notFree(input.therapistId);
    throw error;
  }
}

function notFree(therapistId: string) {
  return new BookingStateConflictError(
    `Therapist ${therapistId} is no longer free at that time; the booking stays as it was`,
  );
}

/** confirmed → completed or no_show, once it has started; the room and therapists are released. */
export async function finishBooking(
  db: Db,
  input: {
    bookingId: string;
    outcome: Extract<BookingStatus, 'completed' | 'no_show'>;
    now: Temporal.Instant;
  } & Audited,
) {
  return db.transaction().execute(async (trx) => {
    const booking = await lockBooking(trx, input.bookingId);
    if (!booking) throw new BookingWorkflowError(`No booking ${input.bookingId}`);
    if (booking.status !== 'confirmed') {
      throw new BookingStateConflictError(
        `Booking ${booking.id} is ${booking.status}; only confirmed bookings can be marked ${input.outcome.replace('_', '-')}`,
      );
    }
    // docs/api.md, "Booking lifecycle": nothing can be said of a treatment before it starts.
    if (Temporal.Instant.compare(input.now, instantFromDb(booking.start_at)) < 0) {
      throw new BookingStateConflictError(
        `Booking ${booking.id} starts at ${instantFromDb(booking.start_at).toString()}; it can be marked ${input.outcome.replace('_', '-')} only once it has started`,
      );
    }
    await releaseReservations(trx, booking.id);
    const finished = await trx
      .updateTable('bookings')
      .set({ status: input.outcome, updated_at: input.now.toString() })
      .where('id', '=', booking.id)
      .returning(['id', 'status', 'therapist_id'])
      .executeTakeFirstOrThrow();
    await recordBookingEvent(trx, input.outcome === 'completed' ? 'booking.completed' : 'booking.no_show', booking.id);
    await recordStep(
      trx,
      input.audit,
      booking,
      input.outcome === 'completed' ? 'booking.completion_recorded' : 'booking.no_show_recorded',
    );
    return finished;
  });
}

/** The audit row of a workflow step, in its transaction, on the record of the booking's organisation. */
async function recordStep(
  trx: Transaction<Database>,
  audit: AuditTrail | undefined,
  booking: { id: string; venue_id: string },
  action: Extract<AuditAction, `booking.${string}`>,
) {
  if (!audit) return;
  const venue = await trx
    .selectFrom('venues')
    .select('organisation_id')
    .where('id', '=', booking.venue_id)
    .executeTakeFirstOrThrow();
  await audit.record(trx, {
    organisationId: venue.organisation_id,
    action,
    target: { type: 'booking', id: booking.id },
  });
}

/** Why a therapist cannot accept a booking they were not offered, in the operator's terms. */
async function notOffered(
  trx: Transaction<Database>,
  booking: { id: string; treatment_id: string },
  therapistId: string,
) {
  const therapist = await trx
    .selectFrom('therapists')
    .select('skills')
    .where('id', '=', therapistId)
    .executeTakeFirst();
  if (!therapist) return new TherapistNotEligibleError(`No therapist ${therapistId}`);
  const { required_skills } = await trx
    .selectFrom('treatments')
    .select('required_skills')
    .where('id', '=', booking.treatment_id)
    .executeTakeFirstOrThrow();
  const missing = required_skills.filter((skill) => !therapist.skills.includes(skill));
  if (missing.length)
    return new TherapistNotEligibleError(
      `Therapist ${therapistId} lacks the skills booking ${booking.id} needs: ${missing.join(', ')}`,
    );
  return new TherapistNotEligibleError(
    `Therapist ${therapistId} was not offered booking ${booking.id} (not on shift at that venue, or not free when it was made)`,
  );
}
