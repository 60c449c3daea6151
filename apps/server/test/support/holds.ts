import { sql } from 'kysely';
import type { Db } from '../../src/db/connect.js';
import { isoFromDb } from '../../src/lib/instant.js';

/** The holds of one booking in a reservation table, as `[start, end)` ranges in ISO UTC, read by SQL. */
export async function holdsOf(db: Db, table: 'room_reservations' | 'therapist_reservations', bookingId: string) {
  const column = table === 'room_reservations' ? 'room_id' : 'therapist_id';
  const { rows } = await sql<{ id: string; lo: string; hi: string; bounds: string }>`
    select ${sql.ref(column)} as id, lower(during) as lo, upper(during) as hi,
           case when lower_inc(during) then '[' else '(' end || case when upper_inc(during) then ']' else ')' end as bounds
    from ${sql.table(table)} where booking_id = ${bookingId} order by 1`.execute(db);
  return rows.map((r) => ({ id: r.id, range: `${r.bounds[0]}${isoFromDb(r.lo)}, ${isoFromDb(r.hi)}${r.bounds[1]}` }));
}
