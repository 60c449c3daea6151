import { Temporal } from 'temporal-polyfill';

/**
 * The dates the scheduling engine answers for. Past dates have no slots anyway; the bounds keep every zone
 * conversion and database range far from the ends of the calendar (year 0 or 10000), where they would fail.
 */
export const FIRST_DATE = Temporal.PlainDate.from('2000-01-01');
export const LAST_DATE = Temporal.PlainDate.from('2999-12-31');

/** Midnight UTC after LAST_DATE: a booking starts before it (beyond, zone and range arithmetic would overflow). */
export const LAST_START = LAST_DATE.add({ days: 1 }).toZonedDateTime('UTC').toInstant();
