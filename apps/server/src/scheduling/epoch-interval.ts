import { Temporal } from 'temporal-polyfill';
import type { Interval, RoomReservation, TherapistReservation } from './snapshot.js';

/**
 * A hold read from the database, kept as the epoch milliseconds it arrives in. A 62-day snapshot of a large venue
 * holds tens of thousands; making two Temporal.Instant for each cost about 130 ms there, for a computation that
 * reads only the numbers (venue-day.ts). The instants are made when read, as ListedSlot does for slots.
 * Holds are written from whole milliseconds (lib/instant.ts tstzrange), so the numbers are exact.
 */
export class EpochInterval implements Interval {
  constructor(
    readonly startMs: number,
    readonly endMs: number,
  ) {}
  get start() {
    return Temporal.Instant.fromEpochMilliseconds(this.startMs);
  }
  get end() {
    return Temporal.Instant.fromEpochMilliseconds(this.endMs);
  }
}

export class RoomHold extends EpochInterval implements RoomReservation {
  constructor(
    readonly roomId: string,
    startMs: number,
    endMs: number,
  ) {
    super(startMs, endMs);
  }
}

export class TherapistHold extends EpochInterval implements TherapistReservation {
  constructor(
    readonly therapistId: string,
    readonly venueId: string,
    startMs: number,
    endMs: number,
  ) {
    super(startMs, endMs);
  }
}
