/**
 * Times and money as a person at the venue reads them: the venue's own time zone, named beside the time (a
 * partner in London reading a Lisbon booking sees Lisbon's time and the word "Lisbon"), and the venue's currency.
 */
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, { timeZone, ...options });
    dateTimeFormats.set(key, format);
  }
  return format;
}

/** "Sat 22 Nov 2026, 10:30 (Europe/Lisbon)". */
export function formatDateTime(iso: string, timeZone: string): string {
  const text = dateTimeFormat(timeZone, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));
  return `${text} (${timeZone})`;
}

/** A time of day with seconds, for logs where order within a minute matters. */
export function formatLogTime(iso: string, timeZone: string): string {
  const text = dateTimeFormat(timeZone, {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(new Date(iso));
  return `${text} (${timeZone})`;
}

/** The browser's zone, for records that belong to no venue (the audit log, webhook endpoints). */
export const localTimeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Amounts travel in major units (120.5 is EUR 120.50), as the partner API's Money has them. */
export function formatMoney(money: { amount: number; currency: string }): string {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: money.currency }).format(money.amount);
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function formatPercent(ratio: number): string {
  return new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 }).format(ratio);
}
