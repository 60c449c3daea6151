/**
 * The scheduling engine: which slots a venue can sell, and whether one requested start can be booked, from one
 * snapshot of the database computed purely. availability/ and bookings/ use it through this door only.
 */
export { FIRST_DATE, LAST_DATE, LAST_START } from './calendar-bounds.js';
export { computeDays, type DaySlots, type ListedSlot } from './compute-slots.js';
export { type Allocation, type BookingDecision, decideBooking } from './decide-booking.js';
export { EpochInterval, RoomHold, TherapistHold } from './epoch-interval.js';
export type { AvailabilitySnapshot, Interval, TherapistSnapshot, VenueScheduleSnapshot } from './snapshot.js';
export { loadSnapshot, type SnapshotVariant, snapshotQuery, toSnapshot, toSnapshotVariant } from './snapshot.loader.js';
export { type SnapshotQuery, type SnapshotRow, selectSnapshotRow, snapshotSql } from './snapshot.query.js';
