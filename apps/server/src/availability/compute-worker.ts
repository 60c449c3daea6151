import { move, transferableSymbol, valueSymbol } from 'piscina';
import { Temporal } from 'temporal-polyfill';
import { computeDays, type SnapshotRow, type SnapshotVariant, toSnapshot } from '../scheduling/computation.js';
import type { VenueRow } from '../venues/venues.repository.js';
import { type AnswerPeriod, availabilityData, encodeAnswer, freshUntilMs } from './availability-answer.js';

/** One heavy availability request, as plain data: the main thread has read the database, the worker computes. */
export interface AvailabilityTask {
  venue: VenueRow;
  variant: SnapshotVariant;
  /** The snapshot as the database returned it (JSON arrays); Temporal values do not cross threads. */
  row: SnapshotRow;
  period: AnswerPeriod;
  /** The request's clock reading, ISO (exact to the nanosecond). */
  now: string;
  guestCount: number;
  validate: boolean;
}

/** The 200's bytes and until when the clock alone leaves them true (availability-answer.ts, freshUntilMs). */
export interface TaskAnswer {
  bytes: Uint8Array;
  freshUntilMs: number;
}

/** A failure of the computation itself (a bug, as on the main thread), told apart from the worker dying. */
export interface TaskFailure {
  failed: { message: string; stack?: string | undefined };
}

/**
 * The worker's task (run by piscina from the build's dist/compute-worker.js): snapshot, slots, the contract check and
 * the JSON bytes of the 200 (handed back without a copy) and how long they hold.
 */
export default function computeAvailability(task: AvailabilityTask): TaskAnswer | TaskFailure {
  try {
    const snapshot = toSnapshot(task.venue, task.variant, task.row);
    const range = { from: Temporal.PlainDate.from(task.period.from), to: Temporal.PlainDate.from(task.period.to) };
    const days = computeDays(snapshot, range, Temporal.Instant.from(task.now), task.guestCount);
    const ids = { venue_id: task.venue.id, treatment_id: task.variant.treatmentId, variant_id: task.variant.id };
    const bytes = encodeAnswer({ data: availabilityData(ids, task.period, days) }, task.validate);
    const answer: TaskAnswer = { bytes, freshUntilMs: freshUntilMs(days, task.variant.leadTimeMinutes) };
    // The answer is posted back with its bytes' buffer transferred, not copied (piscina's transferable wrapper).
    return move({ [transferableSymbol]: bytes.buffer, [valueSymbol]: answer }) as unknown as TaskAnswer;
  } catch (error) {
    const { message, stack } = error instanceof Error ? error : new Error(String(error));
    return { failed: { message, stack } };
  }
}
