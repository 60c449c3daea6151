import { Temporal } from 'temporal-polyfill';
import type { Transaction } from 'kysely';
import type { Db } from '../db/connect.js';
import type { BookingStatus, Database } from '../db/schema.js';
import { instantFromDb, tstzrange } from '../lib/instant.js';
import { isLostRace } from '../db/pg-errors.js';
import type { AuditAction } from '@spa/contract/dashboard';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { OrganisationScope } from '../auth/organisation-scope.js';
import { OperatorError } from '../errors/operator-error.js';
import { recordBookingEvent } from '../webhooks/record-event.js';
import { holdKeys, lockHolds, releaseReservations, therapistsBusyElsewhere } from './bookings.repository.js';
import { resolveBookingForStep } from './resolve-booking.js';
import {
  isTherapistOf,
  recordAcceptance,
  markFinished,
  moveTherapistHold,
  readOfferAndHolders,
  readSkillsToAccept,
} from './therapist-workflow.repository.js';

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

/** Who records a workflow step and whose bookings it may touch. */
interface StepContext {
  /** The audit trail of the CLI's operator or of a dashboard person; none, nothing is audited. */
  audit?: AuditTrail | undefined;
  /**
   * A dashboard person's scope: a booking outside it is refused with `refuseMissing()`, as an absent one, and a
   * therapist of another organisation is answered like an unknown one, so nothing of theirs shows through.
   */
  scope?: OrganisationScope | undefined;
  /** The refusal of an absent booking, when the caller answers it its own way (the dashboard's 404). */
  refuseMissing?: (() => Error) | undefined;
}

/**
 * A therapist accepts the broadcast (docs/api.md, "Booking lifecycle"). A booking for N guests is confirmed when N
 * distinct therapists have accepted it (booking.confirmed once, at the Nth); until then it stays pending or
 * awaiting_therapist with the count of acceptances. Each acceptance is recorded and audited. If the therapist was
 * not a tentatively reserved one, a tentative therapist's reservation (never an accepted one's) moves to them,
 * still guarded by the exclusion constraint and the per-therapist lock of the inter-venue buffer.
 */
export async function acceptBooking(
  db: Db,
  input: { bookingId: string; therapistId: string; now: Temporal.Instant } & StepContext,
) {
  try {
    return await db.transaction().execute(async (trx) => {
      const booking = await resolveStep(trx, input);
      if (input.scope && !(await isTherapistOf(trx, input.therapistId, booking.organisation_id)))
        throw new TherapistNotEligibleError(`No therapist ${input.therapistId}`);
      if (booking.status !== 'pending' && booking.status !== 'awaiting_therapist') {
        throw new BookingStateConflictError(
          `Booking ${booking.id} is ${booking.status}; only pending or awaiting_therapist bookings can be accepted`,
        );
      }
      const { offered, holderIds, acceptedIds } = await readOfferAndHolders(trx, booking.id, input.therapistId);
      if (!offered) throw await notOffered(trx, booking, input.therapistId);
      if (acceptedIds.includes(input.therapistId))
        throw new BookingStateConflictError(
          `Therapist ${input.therapistId} has already accepted booking ${booking.id} (${acceptedIds.length} of ${booking.guest_count} therapists accepted)`,
        );

      if (!holderIds.includes(input.therapistId)) {
        const start = instantFromDb(booking.start_at);
        const end = instantFromDb(booking.end_at);
        const buffer = { minutes: booking.inter_venue_buffer_minutes };
        await lockHolds(
          trx,
          holdKeys('therapist', input.therapistId, { start: start.subtract(buffer), end: end.add(buffer) }),
        );
        const busy = await therapistsBusyElsewhere(trx, {
          therapistIds: [input.therapistId],
          venueId: booking.venue_id,
          start,
          end,
          bufferMinutes: booking.inter_venue_buffer_minutes,
        });
        if (busy.length) throw notFree(input.therapistId);
        // The accepting therapist takes the place of one tentative therapist, never of one who accepted.
        await moveTherapistHold(trx, {
          bookingId: booking.id,
          venueId: booking.venue_id,
          therapistId: input.therapistId,
          during: tstzrange(start, end),
          replacedId: holderIds.find((id) => !acceptedIds.includes(id)),
        });
      }
      const accepted = await recordAcceptance(trx, booking.id, input.therapistId, input.now);
      if (accepted.status === 'confirmed') await recordBookingEvent(trx, 'booking.confirmed', accepted);
      await recordStep(trx, input.audit, booking, 'booking.acceptance_recorded');
      return stepResult(accepted);
    });
  } catch (error) {
    if (isLostRace(error)) throw notFree(input.therapistId);
    throw error;
  }
}

/** The booking the step names, locked, or the caller's refusal of an absent one. */
async function resolveStep(trx: Transaction<Database>, input: { bookingId: string } & StepContext) {
  const booking = await resolveBookingForStep(trx, input.bookingId, input.scope);
  if (!booking) throw input.refuseMissing?.() ?? new BookingWorkflowError(`No booking ${input.bookingId}`);
  return booking;
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
  } & StepContext,
) {
  return db.transaction().execute(async (trx) => {
    const booking = await resolveStep(trx, input);
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
    const finished = await markFinished(trx, booking.id, input.outcome, input.now);
    await recordBookingEvent(trx, input.outcome === 'completed' ? 'booking.completed' : 'booking.no_show', finished);
    await recordStep(
      trx,
      input.audit,
      booking,
      input.outcome === 'completed' ? 'booking.completion_recorded' : 'booking.no_show_recorded',
    );
    return stepResult(finished);
  });
}

/** What a step answers its caller (the CLI prints it; the dashboard reads the booking's page afresh). */
function stepResult(row: {
  id: string;
  status: BookingStatus;
  therapist_id: string | null;
  accepted_count: number;
  guest_count: number;
}) {
  const { id, status, therapist_id, accepted_count, guest_count } = row;
  return { id, status, therapist_id, accepted_count, guest_count };
}

/** The audit row of a workflow step, in its transaction, on the record of the booking's organisation. */
async function recordStep(
  trx: Transaction<Database>,
  audit: AuditTrail | undefined,
  booking: { id: string; organisation_id: string; booking_number: number },
  action: Extract<AuditAction, `booking.${string}`>,
) {
  await audit?.record(trx, {
    organisationId: booking.organisation_id,
    action,
    target: { type: 'booking', id: booking.id, label: `#${booking.booking_number}` },
  });
}

/** Why a therapist cannot accept a booking they were not offered, in the operator's terms. */
async function notOffered(
  trx: Transaction<Database>,
  booking: { id: string; treatment_id: string },
  therapistId: string,
) {
  const { skills, required_skills } = await readSkillsToAccept(trx, therapistId, booking.treatment_id);
  if (!skills) return new TherapistNotEligibleError(`No therapist ${therapistId}`);
  const missing = required_skills.filter((skill) => !skills.includes(skill));
  if (missing.length)
    return new TherapistNotEligibleError(
      `Therapist ${therapistId} lacks the skills booking ${booking.id} needs: ${missing.join(', ')}`,
    );
  return new TherapistNotEligibleError(
    `Therapist ${therapistId} was not offered booking ${booking.id} (not on shift at that venue, or not free when it was made)`,
  );
}
