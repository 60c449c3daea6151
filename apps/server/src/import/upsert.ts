import type { Insertable, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

export type Trx = Transaction<Database>;

/**
 * Parameters one statement of rows may carry: PostgreSQL's bind message holds at most 65,535, and an import of a
 * hotel group's customers has hundreds of thousands of values. Far enough below the limit that a statement of
 * rows stays a few hundred kilobytes.
 */
const PARAMETERS_PER_STATEMENT = 20_000;

/**
 * The rows in slices that each fit one statement: as many rows as PARAMETERS_PER_STATEMENT allows for `columns`
 * values each (by default the width of the first row).
 */
export function batchesOf<T extends object>(rows: readonly T[], columns = Object.keys(rows[0] ?? {}).length): T[][] {
  if (rows.length === 0) return [];
  const perStatement = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / columns));
  const batches: T[][] = [];
  for (let start = 0; start < rows.length; start += perStatement) batches.push(rows.slice(start, start + perStatement));
  return batches;
}

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
  for (const batch of batchesOf(rows))
    await trx
      .insertInto(table)
      .values(batch)
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet((eb) => Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}` as never)])) as never),
      )
      .execute();
}

/** A plain insert of child rows, a statement per batch. */
export async function insertRows<
  T extends
    'therapist_shifts' | 'therapist_shift_overrides' | 'therapist_absences' | 'treatment_rooms' | 'one_time_openings',
>(trx: Trx, table: T, rows: Insertable<Database[T]>[]): Promise<void> {
  for (const batch of batchesOf(rows))
    await trx
      .insertInto(table)
      .values(batch)
      .execute();
}
