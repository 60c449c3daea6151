/**
 * The scheduling engine: which slots a venue can sell, and whether one requested start can be booked, from one
 * snapshot of the database computed purely. availability/ and bookings/ use it through this door only, or through
 * computation.ts, the part without database code (what the availability worker threads load).
 */
export { FIRST_DATE, LAST_DATE, LAST_START } from './calendar-bounds.js';
export { computeDays, type DaySlots, type ListedSlot } from './compute-slots.js';
export { type Allocation, type BookingDecision, chooseRoom, decideBooking } from './decide-booking.js';
export { EpochInterval, RoomHold, TherapistHold } from './epoch-interval.js';
export type { AvailabilitySnapshot, Interval, TherapistSnapshot, VenueScheduleSnapshot } from './snapshot.js';
export { loadSnapshot, snapshotQuery } from './snapshot.loader.js';
export { type SnapshotVariant, toSnapshot, toSnapshotVariant } from './snapshot.mapper.js';
export { type SnapshotQuery, type SnapshotRow, selectSnapshotRow, snapshotSql } from './snapshot.query.js';
