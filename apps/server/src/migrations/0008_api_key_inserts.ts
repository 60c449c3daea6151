import { type Kysely, sql } from 'kysely';
import { API_KEY_CHANGES_CHANNEL } from './0004_api_key_changes.js';

/**
 * Inserts of API keys are announced too: server processes now remember ids they found unknown (so an unknown id
 * costs what a known one does, and no timing tells them apart), and a key created under such an id must drop
 * that memory the moment it commits.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function notify_api_key_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'TRUNCATE' then
        perform pg_notify(${sql.lit(API_KEY_CHANGES_CHANNEL)}, '*');
      elsif tg_op = 'INSERT' then
        perform pg_notify(${sql.lit(API_KEY_CHANGES_CHANNEL)}, new.id);
      else
        perform pg_notify(${sql.lit(API_KEY_CHANGES_CHANNEL)}, old.id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger api_keys_inserted after insert on api_keys
    for each row execute function notify_api_key_change()`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger api_keys_inserted on api_keys`.execute(db);
}
