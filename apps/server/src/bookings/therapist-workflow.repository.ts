import { type Transaction, sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import { BOOKING_COLUMNS } from '../db/columns.js';
import type { Database } from '../db/schema.js';

type Trx = Transaction<Database>;

/**
 * What an acceptance checks of the booking, in one read: whether it was offered to the therapist, which therapists
 * hold it now (tentative ones and those who accepted), and which of them accepted already.
 */
export async function readOfferAndHolders(trx: Trx, bookingId: string, therapistId: string) {
  const { rows } = await sql<{ offered: boolean; holder_ids: string[]; accepted_ids: string[] }>`
    select exists (select 1 from booking_offers where booking_id = ${bookingId} and therapist_id = ${therapistId}) as offered,
           array(select therapist_id::text from therapist_reservations where booking_id = ${bookingId} order by therapist_id) as holder_ids,
           array(select therapist_id::text from booking_offers
                 where booking_id = ${bookingId} and accepted_at is not null order by therapist_id) as accepted_ids
  `.execute(trx);
  return { offered: rows[0]!.offered, holderIds: rows[0]!.holder_ids, acceptedIds: rows[0]!.accepted_ids };
}

/**
 * The therapist's hold on the booking replaces `replacedId`'s (when the booking has a tentative one), in one
 * statement; the exclusion constraint has the last word on the new hold.
 */
export async function moveTherapistHold(
  trx: Trx,
  hold: { bookingId: string; venueId: string; therapistId: string; during: string; replacedId: string | undefined },
) {
  await sql`
    with released as (
      delete from therapist_reservations where booking_id = ${hold.bookingId} and therapist_id = ${hold.replacedId ?? null}
    )
    insert into therapist_reservations (booking_id, therapist_id, venue_id, during)
    values (${hold.bookingId}, ${hold.therapistId}, ${hold.venueId}, ${hold.during}::tstzrange)
  `.execute(trx);
}

/**
 * One therapist's acceptance recorded: their offer marked accepted and the booking's count of acceptances raised;
 * at the guest_count-th the booking is confirmed. The first to accept is the booking's assigned therapist. The row
 * as it is now.
 */
export async function recordAcceptance(trx: Trx, bookingId: string, therapistId: string, now: Temporal.Instant) {
  return trx
    .with('offer', (db) =>
      db
        .updateTable('booking_offers')
        .set({ accepted_at: now.toString() })
        .where('booking_id', '=', bookingId)
        .where('therapist_id', '=', therapistId),
    )
    .updateTable('bookings')
    .set({
      accepted_count: sql`accepted_count + 1`,
      status: sql`case when accepted_count + 1 >= guest_count then 'confirmed' else status end`,
      therapist_id: sql`coalesce(therapist_id, ${therapistId}::uuid)`,
      updated_at: now.toString(),
    })
    .where('id', '=', bookingId)
    .returning([...BOOKING_COLUMNS, 'therapist_id'])
    .executeTakeFirstOrThrow();
}

/** A confirmed booking completed or marked no-show, its room and therapists released; the row as it is now. */
export async function markFinished(
  trx: Trx,
  bookingId: string,
  outcome: 'completed' | 'no_show',
  now: Temporal.Instant,
) {
  return trx
    .updateTable('bookings')
    .set({ status: outcome, updated_at: now.toString() })
    .where('id', '=', bookingId)
    .returning([...BOOKING_COLUMNS, 'therapist_id'])
    .executeTakeFirstOrThrow();
}

/** The therapist's skills (null when there is no such therapist) and the skills the treatment needs. */
export async function readSkillsToAccept(trx: Trx, therapistId: string, treatmentId: string) {
  const { rows } = await sql<{ skills: string[] | null; required_skills: string[] }>`
    select (select skills from therapists where id = ${therapistId}) as skills, required_skills
    from treatments where id = ${treatmentId}
  `.execute(trx);
  return rows[0]!;
}

/** Whether the therapist belongs to the organisation (the dashboard answers any other like an unknown one). */
export async function isTherapistOf(trx: Trx, therapistId: string, organisationId: string) {
  const row = await trx
    .selectFrom('therapists')
    .select('id')
    .where('id', '=', therapistId)
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
  return row !== undefined;
}
