import { sql } from 'kysely';
import type { Db } from '../../src/db/connect.js';

/**
 * Overlapping holds of one room or one therapist within one mode (a live and a test hold may overlap: two worlds),
 * counted by SQL over the tables, not by the API's word.
 */
export async function overlappingHolds(db: Db): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    select (select count(*) from room_reservations a join room_reservations b
              on a.room_id = b.room_id and a.livemode = b.livemode and a.booking_id < b.booking_id and a.during && b.during)
         + (select count(*) from therapist_reservations a join therapist_reservations b
              on a.therapist_id = b.therapist_id and a.livemode = b.livemode and a.booking_id < b.booking_id and a.during && b.during) as n`.execute(
    db,
  );
  return Number(rows[0]!.n);
}
