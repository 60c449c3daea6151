import type { Temporal } from 'temporal-polyfill';
import { tstzrange } from '../lib/instant.js';
import { type Holds, holdKeys } from './bookings.repository.js';

interface Range {
  start: Temporal.Instant;
  end: Temporal.Instant;
}

/** What a venue's buffers do to the holds of a booking there. */
export interface VenueBuffers {
  room_turnover_buffer_minutes: number;
  inter_venue_buffer_minutes: number;
}

export interface HoldRanges {
  /** The room is held through its turnover. */
  room: Range;
  therapist: Range;
  /** The therapists' range widened by the inter-venue buffer: their locks and the check for holds at other venues. */
  withBuffer: Range;
}

/**
 * The ranges a booking over [start, end) holds, for every writer of holds (the API's create, the venue data
 * import), so the turnover and inter-venue buffer rules are written once.
 */
export function holdRanges(venue: VenueBuffers, start: Temporal.Instant, end: Temporal.Instant): HoldRanges {
  const buffer = { minutes: venue.inter_venue_buffer_minutes };
  return {
    room: { start, end: end.add({ minutes: venue.room_turnover_buffer_minutes }) },
    therapist: { start, end },
    withBuffer: { start: start.subtract(buffer), end: end.add(buffer) },
  };
}

/**
 * The keys lockHolds takes before holds are written: the rooms over their held range, the therapists over the
 * buffered one. A writer that has not chosen its room yet passes every room it may take.
 */
export function holdLockKeys(roomIds: string[], therapistIds: string[], ranges: HoldRanges): string[] {
  return [
    ...roomIds.flatMap((id) => holdKeys('room', id, ranges.room)),
    ...therapistIds.flatMap((id) => holdKeys('therapist', id, ranges.withBuffer)),
  ];
}

export type TherapistHolds = Omit<Holds, 'roomId' | 'roomRange'>;

/** The therapists' part of the holds: what their clashes are checked against before a room is chosen. */
export function therapistHoldsOf(
  therapistIds: string[],
  venue: VenueBuffers,
  ranges: HoldRanges,
  livemode: boolean,
): TherapistHolds {
  return {
    therapistIds,
    livemode,
    therapistRange: tstzrange(ranges.therapist.start, ranges.therapist.end),
    elsewhereRange:
      venue.inter_venue_buffer_minutes > 0 ? tstzrange(ranges.withBuffer.start, ranges.withBuffer.end) : null,
  };
}

/** The rows of holds as the repository writes them (insertBookingWithHolds, insertHolds). */
export function holdsOf(
  roomId: string,
  therapistIds: string[],
  venue: VenueBuffers,
  ranges: HoldRanges,
  livemode: boolean,
): Holds {
  return {
    roomId,
    roomRange: tstzrange(ranges.room.start, ranges.room.end),
    ...therapistHoldsOf(therapistIds, venue, ranges, livemode),
  };
}
