import type { BookingRow } from '@spa/contract/dashboard';
import { Temporal } from 'temporal-polyfill';
import type { z } from 'zod';

type Row = z.infer<typeof BookingRow>;

/** The export's columns: a header and what each booking writes under it (times in the venue's own zone). */
const COLUMNS: [string, (row: Row) => string | number | null][] = [
  ['booking_number', (r) => r.booking_number],
  ['status', (r) => r.status],
  ['start_local', (r) => local(r.start_at, r.venue.timezone)],
  ['end_local', (r) => local(r.end_at, r.venue.timezone)],
  ['timezone', (r) => r.venue.timezone],
  ['venue', (r) => r.venue.name],
  ['treatment', (r) => r.treatment.name],
  ['variant', (r) => r.variant.name],
  ['guests', (r) => r.guest_count],
  ['customer_first_name', (r) => r.customer.first_name],
  ['customer_last_name', (r) => r.customer.last_name],
  ['customer_email', (r) => r.customer.email],
  ['customer_language', (r) => r.customer.language],
  ['therapist', (r) => (r.therapist ? `${r.therapist.first_name} ${r.therapist.last_name}` : null)],
  ['total_price', (r) => r.total_price.amount],
  ['currency', (r) => r.total_price.currency],
  ['external_id', (r) => r.external_id],
  ['external_reference', (r) => r.external_reference],
  ['notes', (r) => r.notes],
  ['created_at', (r) => r.created_at],
  ['id', (r) => r.id],
];

function local(iso: string, timeZone: string): string {
  return Temporal.Instant.from(iso).toZonedDateTimeISO(timeZone).toPlainDateTime().toString({ smallestUnit: 'minute' });
}

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. A text that a spreadsheet would
 * run as a formula (=, +, -, @ first) is written after a quote mark, so a customer's notes cannot run one.
 */
function field(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The bookings as CSV with a header row and CRLF line ends. */
export function bookingsCsv(rows: Row[]): string {
  const lines = [COLUMNS.map(([name]) => name).join(',')];
  for (const row of rows) lines.push(COLUMNS.map(([, value]) => field(value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
