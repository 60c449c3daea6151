import { MAX_RANGE_DAYS } from '@spa/contract';
import { LRUCache } from 'lru-cache';
import { Temporal } from 'temporal-polyfill';
import type { AnswerPeriod } from './availability-answer.js';
import { ValidationError } from '../errors/domain-errors.js';
import { FIRST_DATE, LAST_DATE } from '../scheduling/index.js';

export interface Period {
  mode: 'day' | 'range';
  from: Temporal.PlainDate;
  to: Temporal.PlainDate;
  /** The same period as the answer names it (YYYY-MM-DD). */
  dates: AnswerPeriod;
}

type PeriodQuery = { date?: string | undefined; from?: string | undefined; to?: string | undefined };

/** Periods asked for recently: most requests ask for the same few days, and parsing them is most of periodOf. */
const recent = new LRUCache<string, Period>({ max: 1_000 });

/**
 * The contract has checked which parameters are present and that each is a real date;
 * this checks their order and span, which needs calendar arithmetic (Temporal). A period is a pure function of the
 * query's dates, so one already checked is taken from `recent` (frozen: callers share it); a refused one is
 * checked again each time, so it throws its own error.
 */
export function periodOf(query: PeriodQuery): Period {
  const key = query.date ? `day|${query.date}` : `range|${query.from}|${query.to}`;
  let period = recent.get(key);
  if (!period) recent.set(key, (period = Object.freeze(checkedPeriod(query))));
  return period;
}

function checkedPeriod(query: PeriodQuery): Period {
  if (query.date) {
    const day = withinCalendar('date', query.date);
    return { mode: 'day', from: day, to: day, dates: { mode: 'day', from: day.toString(), to: day.toString() } };
  }
  const from = withinCalendar('from', query.from!);
  const to = withinCalendar('to', query.to!);
  if (Temporal.PlainDate.compare(to, from) < 0) throw ValidationError.field('to', 'to must be on or after from');
  if (from.until(to, { largestUnit: 'day' }).days > MAX_RANGE_DAYS) {
    throw ValidationError.field('to', `to must be at most ${MAX_RANGE_DAYS} days after from`);
  }
  return { mode: 'range', from, to, dates: { mode: 'range', from: from.toString(), to: to.toString() } };
}

function withinCalendar(name: string, text: string): Temporal.PlainDate {
  const date = Temporal.PlainDate.from(text);
  if (Temporal.PlainDate.compare(date, FIRST_DATE) < 0 || Temporal.PlainDate.compare(date, LAST_DATE) > 0) {
    throw ValidationError.field(name, `${name} must be from ${FIRST_DATE.toString()} to ${LAST_DATE.toString()}`);
  }
  return date;
}
