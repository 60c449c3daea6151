import type { BookingStatus } from '../db/schema.js';

/** Statuses that hold a room and therapists (docs/api.md, "Availability rules"). */
export const LIVE_STATUSES: readonly BookingStatus[] = ['pending', 'awaiting_therapist', 'confirmed'];
