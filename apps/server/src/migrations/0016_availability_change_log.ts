import { type Kysely, sql } from 'kysely';
import { AVAILABILITY_CHANGES_CHANNEL } from './0010_availability_changes.js';

/** The change log's venue for "every venue" (a TRUNCATE): the nil UUID, so the key's columns are never null. */
export const EVERY_VENUE = '00000000-0000-0000-0000-000000000000';

/**
 * The session setting under which the triggers notify in the writing transaction instead of logging: set by the
 * embedded database's one session (db/connect.ts), where a notice in the transaction costs no other writer
 * anything and is delivered before the commit returns.
 */
export const NOTIFY_IN_TRANSACTION_SETTING = 'spa.availability_notices';

/**
 * Every change to what availability reads is logged, not notified. A `pg_notify` in the writing transaction takes
 * PostgreSQL's one notification lock from its commit until the commit's WAL flush, so every such commit in the
 * cluster waited for the one before it (no group commit; docs/performance.md "Cache invalidation without NOTIFY").
 * The same triggers (migration 0010, whoever writes: a booking, the importer, the CLI, a cascade, an operator's own
 * SQL) now add one row per (transaction, venue) to `availability_changes`, an ordinary insert that commits with the
 * rest. Each server process reads the rows that committed since its last read (db/change-log.ts), on its listening
 * connection: a few times a second, on any notice of the channel, and before an answer is served from memory.
 *
 * Rows are found by their writer's transaction id and read by snapshot, not by a sequence: a sequence number is
 * taken at insert, so a row with a smaller number can commit after one with a larger number has been read, and a
 * reader that kept "the largest number seen" would skip it. A reader instead keeps the snapshot of its last read
 * and asks for the rows whose transaction that snapshot did not see as committed; every row is read exactly once,
 * whatever order the transactions commit in.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table availability_changes (
      xid xid8 not null default pg_current_xact_id(),
      venue_id uuid not null,
      primary key (xid, venue_id)
    )`.execute(db);
  await sql`
    create or replace function notify_availability_change() returns trigger language plpgsql as $$
    declare
      venues uuid[];
      venue uuid;
    begin
      if tg_op = 'TRUNCATE' then
        venues := array[${sql.lit(EVERY_VENUE)}::uuid];
      else
        venues := array(
          select v from (
            select availability_venues_of(tg_table_name, to_jsonb(old)) where tg_op in ('UPDATE', 'DELETE')
            union
            select availability_venues_of(tg_table_name, to_jsonb(new)) where tg_op in ('UPDATE', 'INSERT')
          ) found (v) where v is not null);
      end if;
      if current_setting(${sql.lit(NOTIFY_IN_TRANSACTION_SETTING)}, true) = 'in_transaction' then
        foreach venue in array venues loop
          perform pg_notify(${sql.lit(AVAILABILITY_CHANGES_CHANNEL)},
            case when venue = ${sql.lit(EVERY_VENUE)}::uuid then '*' else venue::text end);
        end loop;
      else
        -- One row per venue per transaction, however many rows of it the transaction writes.
        insert into availability_changes (venue_id) select unnest(venues) on conflict do nothing;
      end if;
      return null;
    end $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const channel = sql.lit(AVAILABILITY_CHANGES_CHANNEL);
  await sql`
    create or replace function notify_availability_change() returns trigger language plpgsql as $$
    declare
      venue uuid;
    begin
      if tg_op = 'TRUNCATE' then
        perform pg_notify(${channel}, '*');
        return null;
      end if;
      if tg_op in ('UPDATE', 'DELETE') then
        for venue in select availability_venues_of(tg_table_name, to_jsonb(old)) loop
          perform pg_notify(${channel}, venue::text);
        end loop;
      end if;
      if tg_op in ('UPDATE', 'INSERT') then
        for venue in select availability_venues_of(tg_table_name, to_jsonb(new)) loop
          perform pg_notify(${channel}, venue::text);
        end loop;
      end if;
      return null;
    end $$`.execute(db);
  await sql`drop table availability_changes`.execute(db);
}
