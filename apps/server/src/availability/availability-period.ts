import { MAX_RANGE_DAYS } from '@spa/contract';
import { Temporal } from 'temporal-polyfill';
import { ValidationError } from '../errors/domain-errors.js';
import { FIRST_DATE, LAST_DATE } from '../scheduling/index.js';

export interface Period {
  mode: 'day' | 'range';
  from: Temporal.PlainDate;
  to: Temporal.PlainDate;
}

/**
 * The contract has checked which parameters are present and that each is a real date;
 * this checks their order and span, which needs calendar arithmetic (Temporal).
 */
export function periodOf(query: {
  date?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}): Period {
  if (query.date) {
    const day = withinCalendar('date', query.date);
    return { mode: 'day', from: day, to: day };
  }
  const from = withinCalendar('from', query.from!);
  const to = withinCalendar('to', query.to!);
  if (Temporal.PlainDate.compare(to, from) < 0) throw ValidationError.field('to', 'to must be on or after from');
  if (from.until(to, { largestUnit: 'day' }).days > MAX_RANGE_DAYS) {
    throw ValidationError.field('to', `to must be at most ${MAX_RANGE_DAYS} days after from`);
  }
  return { mode: 'range', from, to };
}

function withinCalendar(name: string, text: string): Temporal.PlainDate {
  const date = Temporal.PlainDate.from(text);
  if (Temporal.PlainDate.compare(date, FIRST_DATE) < 0 || Temporal.PlainDate.compare(date, LAST_DATE) > 0) {
    throw ValidationError.field(name, `${name} must be from ${FIRST_DATE.toString()} to ${LAST_DATE.toString()}`);
  }
  return date;
}
