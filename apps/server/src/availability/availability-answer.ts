import { contract, type DayAvailability, type RangeAvailability } from '@spa/contract';
import { validateResponse } from '@ts-rest/core';
import type { z } from 'zod';
import type { DaySlots } from '../scheduling/computation.js';
import { toSlotJson } from './slot.mapper.js';

export type AnswerIds = Pick<z.infer<typeof DayAvailability>, 'venue_id' | 'treatment_id' | 'variant_id'>;

/** The period as the answer names it: venue-local dates, YYYY-MM-DD. */
export interface AnswerPeriod {
  mode: 'day' | 'range';
  from: string;
  to: string;
}

/** The `data` of a 200: day mode lists one date's slots, range mode every date of the period. */
export function availabilityData(
  ids: AnswerIds,
  period: AnswerPeriod,
  days: DaySlots[],
): z.infer<typeof DayAvailability> | z.infer<typeof RangeAvailability> {
  return period.mode === 'day'
    ? { mode: 'day', ...ids, date: period.from, slots: (days[0]?.slots ?? []).map(toSlotJson) }
    : {
        mode: 'range',
        ...ids,
        from: period.from,
        to: period.to,
        days: days.map((day) => ({ date: day.date.toString(), slots: day.slots.map(toSlotJson) })),
      };
}

/**
 * The bytes of a 200 exactly as ts-rest and Express write them on the main thread: the body checked against the
 * contract by ts-rest's own `validateResponse` (whose output, in the schema's key order, is what gets written),
 * then `JSON.stringify` as `res.json` does. A body that breaks the contract throws, as it does there.
 */
export function encodeAnswer(body: { data: ReturnType<typeof availabilityData> }, validate: boolean): Uint8Array {
  const checked = validate
    ? validateResponse({ appRoute: contract.availability.variant, response: { status: 200, body } }).body
    : body;
  // TextEncoder gives the bytes their own ArrayBuffer, which the worker can hand over without a copy.
  return new TextEncoder().encode(JSON.stringify(checked));
}

/**
 * Until when (epoch ms) `days` stay the answer if nothing is written: the clock only takes slots away (a start
 * inside the lead time is no longer listed, compute-slots.ts) and never adds one, so the answer holds until the
 * earliest listed start less the lead time. A list with no slot holds until the schedule changes.
 */
export function freshUntilMs(days: DaySlots[], leadTimeMinutes: number): number {
  let earliest = Infinity;
  for (const day of days) for (const slot of day.slots) if (slot.startMs < earliest) earliest = slot.startMs;
  return earliest - leadTimeMinutes * 60_000;
}
