import type { Slot as SlotJson } from '@spa/contract';
import type { z } from 'zod';
import type { Slot } from './compute-slots.js';

const HH_MM = { smallestUnit: 'minute' } as const;

/** A computed slot at the edge: UTC and venue-local HH:mm, ISO instants. */
export function toSlotJson(slot: Slot): z.infer<typeof SlotJson> {
  return {
    time: slot.start.toZonedDateTimeISO('UTC').toPlainTime().toString(HH_MM),
    local_time: slot.localTime.toString(HH_MM),
    start_at: slot.start.toString(),
    end_at: slot.end.toString(),
    out_of_hours: slot.outOfHours,
    available_capacity: slot.availableCapacity,
  };
}
