/**
 * The scheduling engine without its database code: mapping a snapshot row and computing slots. The availability
 * worker threads load this door rather than index.ts, which would bring kysely and double their start-up.
 */
export { computeDays, type DaySlots, type ListedSlot } from './compute-slots.js';
export { type SnapshotVariant, toSnapshot } from './snapshot.mapper.js';
export type { SnapshotRow } from './snapshot.query.js';
