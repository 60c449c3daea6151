import { sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import { BOOKING_COLUMNS, type BookingRow } from '../db/columns.js';
import type { Db } from '../db/connect.js';
import { recordBookingEvent } from '../webhooks/record-event.js';

/**
 * docs/api.md, "Booking lifecycle": a pending booking that no therapist accepted within its venue's
 * `therapist_response_minutes` (counted from its creation, or from the reschedule that handed it to new therapists)
 * becomes awaiting_therapist (holds kept; it can still be accepted), with its
 * event, in one transaction per batch. A rule of bookings; the webhook engine's loop is what runs it
 * (docs/decisions.md, "Bookings"). SKIP LOCKED leaves a booking being accepted right now to its acceptor,
 * and lets several processes run this job at once. Returns how many bookings moved.
 */
export async function expirePendingBookings(db: Db, now: Temporal.Instant, limit = 100): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<BookingRow>`
      with due as (
        select b.id from bookings b join venues v on v.id = b.venue_id
        where b.status = 'pending'
          and coalesce(b.response_window_from, b.created_at) + make_interval(mins => v.therapist_response_minutes) <= ${now.toString()}::timestamptz
        order by coalesce(b.response_window_from, b.created_at)
        limit ${limit}
        for update of b skip locked
      )
      update bookings b set status = 'awaiting_therapist', updated_at = ${now.toString()}::timestamptz
      from due where b.id = due.id
      returning ${sql.join(BOOKING_COLUMNS.map((c) => sql.ref(`b.${c}`)))}
    `.execute(trx);
    for (const row of rows) await recordBookingEvent(trx, 'booking.awaiting_therapist', row);
    return rows.length;
  });
}
