import { type Kysely, sql } from 'kysely';

/** The channel every server process listens on for API-key changes (src/auth/api-key-cache.ts). */
export const API_KEY_CHANGES_CHANNEL = 'api_key_changes';

/**
 * Every change to an API key announces itself on a notification channel, whoever makes it: the CLI, an import, a
 * cascade, an operator's own SQL. Server processes cache key rows and drop one the moment it changes, so a
 * revocation takes effect everywhere at once. The payload is the key id; `*` (a TRUNCATE) means all of them.
 * Inserts need no notice: a key is cached only after it has been read, and an unknown id is never cached.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function notify_api_key_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'TRUNCATE' then
        perform pg_notify(${sql.lit(API_KEY_CHANGES_CHANNEL)}, '*');
      else
        perform pg_notify(${sql.lit(API_KEY_CHANGES_CHANNEL)}, old.id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger api_keys_changed after update or delete on api_keys
    for each row execute function notify_api_key_change()`.execute(db);
  await sql`create trigger api_keys_truncated after truncate on api_keys
    for each statement execute function notify_api_key_change()`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger api_keys_truncated on api_keys`.execute(db);
  await sql`drop trigger api_keys_changed on api_keys`.execute(db);
  await sql`drop function notify_api_key_change()`.execute(db);
}
