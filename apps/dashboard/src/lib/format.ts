/**
 * Times and money as a person at the venue reads them: the venue's own time zone, named beside the time (a
 * partner in London reading a Lisbon booking sees Lisbon's time and the word "Lisbon"), and the venue's currency.
 */
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** The language the dashboard is shown in (i18n.tsx sets it): every date, number and amount follows it. */
let locale: string | undefined;

export function setFormatLocale(next: string): void {
  locale = next;
}

function dateTimeFormat(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}|${JSON.stringify(options)}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone, ...options });
    dateTimeFormats.set(key, format);
  }
  return format;
}

const DATE_TIME: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
};

/** "Sat 22 Nov 2026, 10:30 (Europe/Lisbon)". */
export function formatDateTime(iso: string, timeZone: string): string {
  const text = dateTimeFormat(timeZone, DATE_TIME).format(new Date(iso));
  return `${text} (${timeZone})`;
}

/** "Thu 26 Nov 2026, 09:00 – 10:00 (Europe/Paris)": the date once when both ends fall on the same day. */
export function formatTimeRange(startIso: string, endIso: string, timeZone: string): string {
  const text = dateTimeFormat(timeZone, DATE_TIME).formatRange(new Date(startIso), new Date(endIso));
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
  return new Intl.NumberFormat(locale, { style: 'currency', currency: money.currency }).format(money.amount);
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function formatPercent(ratio: number): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(ratio);
}

/** A day of the agenda: "Thursday 26 November" in the venue's zone. */
export function formatDay(date: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );
}

/** A language's name in the reader's language: "French", "français". */
export function formatLanguage(code: string): string {
  try {
    return new Intl.DisplayNames(locale, { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
