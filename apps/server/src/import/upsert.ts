import type { Insertable, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

export type Trx = Transaction<Database>;

/** `insert … on conflict (id) do update` of every given column: the file is the truth for its ids. */
export async function upsertById<
  T extends
    | 'organisations'
    | 'venues'
    | 'rooms'
    | 'treatments'
    | 'variants'
    | 'therapists'
    | 'customers'
    | 'bookings'
    | 'venue_blocks',
>(trx: Trx, table: T, rows: Insertable<Database[T]>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!).filter((c) => c !== 'id');
  await trx
    .insertInto(table)
    .values(rows)
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet((eb) => Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}` as never)])) as never),
    )
    .execute();
}
