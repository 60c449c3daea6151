import { MAX_RANGE_DAYS } from '@spa/contract';
import { Temporal } from 'temporal-polyfill';
import { ValidationError } from '../http/domain-errors.js';

export interface Period {
  mode: 'day' | 'range';
  from: Temporal.PlainDate;
  to: Temporal.PlainDate;
}

/**
 * The contract has checked which parameters are present and that each is a real date;
 * this checks their order and span, which needs calendar arithmetic (Temporal).
 */
export function periodOf(query: { date?: string | undefined; from?: string | undefined; to?: string | undefined }): Period {
  if (query.date) {
    const day = Temporal.PlainDate.from(query.date);
    return { mode: 'day', from: day, to: day };
  }
  const from = Temporal.PlainDate.from(query.from!);
  const to = Temporal.PlainDate.from(query.to!);
  if (Temporal.PlainDate.compare(to, from) < 0) throw ValidationError.field('to', 'to must be on or after from');
  if (from.until(to, { largestUnit: 'day' }).days > MAX_RANGE_DAYS) {
    throw ValidationError.field('to', `to must be at most ${MAX_RANGE_DAYS} days after from`);
  }
  return { mode: 'range', from, to };
}
