import type { Slot as SlotJson } from '@spa/contract';
import type { z } from 'zod';
import { isoFromEpochMs, TWO_DIGITS } from '../lib/instant.js';
import type { ListedSlot } from '../scheduling/index.js';

/** A computed slot at the edge: UTC and venue-local HH:mm, ISO UTC instants. */
export function toSlotJson(slot: ListedSlot): z.infer<typeof SlotJson> {
  const start = isoFromEpochMs(slot.startMs);
  return {
    time: start.slice(11, 16),
    local_time: `${TWO_DIGITS[Math.floor(slot.localMinutes / 60)]}:${TWO_DIGITS[slot.localMinutes % 60]}`,
    start_at: start,
    end_at: isoFromEpochMs(slot.endMs),
    out_of_hours: slot.outOfHours,
    available_capacity: slot.availableCapacity,
  };
}
