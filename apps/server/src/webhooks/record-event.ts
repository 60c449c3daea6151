import { randomUUID } from 'node:crypto';
import type { WebhookEvent, WebhookEventType } from '@spa/contract';
import { sql, type Transaction } from 'kysely';
import { toBooking } from '../bookings/booking.mapper.js';
import { anyUuid } from '../db/any-of.js';
import { BOOKING_COLUMNS, type BookingRow } from '../db/columns.js';
import type { BookingStatus, Database } from '../db/schema.js';
import { isoFromDb } from '../lib/instant.js';

type Trx = Transaction<Database>;

/** The event a booking's new status announces; `pending` has none of its own (creation is booking.created). */
const EVENT_OF_STATUS: Partial<Record<BookingStatus, Exclude<WebhookEventType, 'booking.rescheduled'>>> = {
  awaiting_therapist: 'booking.awaiting_therapist',
  confirmed: 'booking.confirmed',
  cancelled: 'booking.cancelled',
  completed: 'booking.completed',
  no_show: 'booking.no_show',
};

/**
 * The outbox: writes the event of a booking change inside the change's own transaction (so it exists exactly
 * when the change committed), with one pending delivery per enabled endpoint of the booking's organisation
 * that wants it. `row` is the booking as the change left it (every writer has it from its RETURNING): one round trip.
 */
export async function recordBookingEvent(
  trx: Trx,
  type: Exclude<WebhookEventType, 'booking.rescheduled'>,
  row: BookingRow,
) {
  await recordEvent(trx, row, { type, timestamp: isoFromDb(row.updated_at), data: { booking: toBooking(row) } });
}

/** booking.rescheduled: the booking at its new time, with the start and end it had before. */
export async function recordRescheduledEvent(
  trx: Trx,
  row: BookingRow,
  previous: { start_at: string; end_at: string },
) {
  await recordEvent(trx, row, {
    type: 'booking.rescheduled',
    timestamp: isoFromDb(row.updated_at),
    data: {
      booking: toBooking(row),
      previous_start_at: isoFromDb(previous.start_at),
      previous_end_at: isoFromDb(previous.end_at),
    },
  });
}

// Typed by the contract's event schemas, the same ones the OpenAPI document's webhooks and the SDK read.
async function recordEvent(trx: Trx, row: BookingRow, event: WebhookEvent) {
  const { type, timestamp } = event;
  const body = JSON.stringify(event);
  await sql`
    with event as (
      insert into webhook_events (id, type, booking_id, organisation_id, venue_id, body, created_at)
      select ${randomUUID()}, ${type}, ${row.id}, v.organisation_id, v.id, ${body}, ${timestamp}
      from venues v where v.id = ${row.venue_id}
      returning id, organisation_id, venue_id, created_at
    )
    insert into webhook_deliveries (event_id, endpoint_id, next_attempt_at)
    select event.id, ep.id, event.created_at
    from event join webhook_endpoints ep on ep.organisation_id = event.organisation_id
    where ep.disabled_at is null
      and (ep.venue_id is null or ep.venue_id = event.venue_id)
      and (cardinality(ep.event_types) = 0 or ${type} = any(ep.event_types))
  `.execute(trx);
}

/**
 * For changes made in bulk (an import): remembers the statuses of `bookingIds` now; the returned function,
 * called later in the same transaction, records the event of every booking whose status changed since.
 */
export async function watchStatusChanges(trx: Trx, bookingIds: string[]): Promise<() => Promise<void>> {
  const before = new Map(
    bookingIds.length === 0
      ? []
      : (await trx.selectFrom('bookings').select(['id', 'status']).where('id', '=', anyUuid(bookingIds)).execute()).map(
          (b) => [b.id, b.status] as const,
        ),
  );
  return async () => {
    const changed = [...before.keys()];
    if (changed.length === 0) return;
    // Statuses first, whole rows only for the bookings whose status changed: an import re-reads every booking it names.
    const after = await trx
      .selectFrom('bookings')
      .select(['id', 'status'])
      .where('id', '=', anyUuid(changed))
      .execute();
    const moved = after.filter((b) => EVENT_OF_STATUS[b.status] && before.get(b.id) !== b.status).map((b) => b.id);
    if (moved.length === 0) return;
    const rows = await trx.selectFrom('bookings').select(BOOKING_COLUMNS).where('id', '=', anyUuid(moved)).execute();
    for (const row of rows) await recordBookingEvent(trx, EVENT_OF_STATUS[row.status]!, row);
  };
}
