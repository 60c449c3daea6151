import { type Transaction, sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import { BOOKING_COLUMNS } from '../db/columns.js';
import type { Database } from '../db/schema.js';

type Trx = Transaction<Database>;

/**
 * The therapists a move tries to keep: every therapist holding a confirmed booking (however it was confirmed, by
 * acceptances or by a venue data file), or those holding a pending one who already accepted it. Tentative
 * therapists are chosen again for the new time like a new booking's.
 */
export async function therapistsToKeep(trx: Trx, booking: { id: string; status: string }): Promise<string[]> {
  const { rows } = await sql<{ therapist_id: string }>`
    select h.therapist_id from therapist_reservations h
    where h.booking_id = ${booking.id}
      and (${booking.status === 'confirmed'} or exists (
        select 1 from booking_offers o
        where o.booking_id = h.booking_id and o.therapist_id = h.therapist_id and o.accepted_at is not null))
    order by h.therapist_id
  `.execute(trx);
  return rows.map((r) => r.therapist_id);
}

/**
 * The booking moved to [start, end), and the broadcast redone for the new slot: every qualified
 * therapist free there is offered it. With `handOver` (its accepted therapists could not all be kept) the booking
 * starts over as pending: acceptances dropped, no therapist assigned, the response window restarted now; otherwise
 * status and acceptances stay. Returns the row as it is now.
 */
export async function moveBooking(
  trx: Trx,
  move: {
    bookingId: string;
    start: Temporal.Instant;
    end: Temporal.Instant;
    now: Temporal.Instant;
    handOver: boolean;
    offeredTherapistIds: string[];
  },
) {
  const now = move.now.toString();
  await trx
    .deleteFrom('booking_offers')
    .where('booking_id', '=', move.bookingId)
    .$if(!move.handOver, (q) => q.where('accepted_at', 'is', null))
    .execute();
  await sql`
    insert into booking_offers (booking_id, therapist_id, offered_at)
    select ${move.bookingId}, t.id, ${now}::timestamptz from unnest(${move.offeredTherapistIds}::uuid[]) as t(id)
    on conflict do nothing
  `.execute(trx);
  let update = trx
    .updateTable('bookings')
    .set({ start_at: move.start.toString(), end_at: move.end.toString(), updated_at: now })
    .where('id', '=', move.bookingId);
  if (move.handOver)
    update = update.set({ status: 'pending', therapist_id: null, accepted_count: 0, response_window_from: now });
  return update.returning([...BOOKING_COLUMNS, 'therapist_id']).executeTakeFirstOrThrow();
}
