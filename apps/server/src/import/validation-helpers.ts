import { Temporal } from 'temporal-polyfill';

/** Records one problem of the file at its JSON path (`venues[0].rooms[1].capacity`). */
export type Report = (path: string, message: string) => void;

/** Reports every repeat of a value, pointing at its first occurrence. */
export function duplicates(entries: (readonly [value: string, path: string])[], report: Report, what = 'value'): void {
  const first = new Map<string, string>();
  for (const [value, path] of entries) {
    const earlier = first.get(value);
    if (earlier !== undefined) report(path, `${what} ${value} is already used at ${earlier}`);
    else first.set(value, path);
  }
}

/** HH:mm and HH:mm:ss both appear in files; compared as text they would disagree ("18:00" < "18:00:00"). */
export function isBefore(a: string, b: string): boolean {
  return Temporal.PlainTime.compare(Temporal.PlainTime.from(a), Temporal.PlainTime.from(b)) < 0;
}

export function isInstantBefore(a: string, b: string): boolean {
  return Temporal.Instant.compare(Temporal.Instant.from(a), Temporal.Instant.from(b)) < 0;
}

/** A zone name Temporal knows; an offset such as "+01:00" is not an IANA zone and has no DST rules. */
export function isTimeZone(zone: string): boolean {
  if (/^[+-]/.test(zone)) return false;
  try {
    Temporal.Now.instant().toZonedDateTimeISO(zone);
    return true;
  } catch {
    return false;
  }
}
