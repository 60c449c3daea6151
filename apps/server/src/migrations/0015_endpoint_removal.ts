import { type Kysely, sql } from 'kysely';

/**
 * Removing a webhook endpoint keeps its history: the row stays with `removed_at` set (and `disabled_at`, so every
 * path that sends to or queues for enabled endpoints already leaves it out), its deliveries and their attempt log
 * stay readable, and an attempt still in flight at removal can record its result.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table webhook_endpoints add column removed_at timestamptz`.execute(db);
  await sql`alter table webhook_endpoints add constraint webhook_endpoints_removed_disabled_check
    check (removed_at is null or disabled_at is not null)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from webhook_endpoints where removed_at is not null`.execute(db);
  await sql`alter table webhook_endpoints drop constraint webhook_endpoints_removed_disabled_check`.execute(db);
  await sql`alter table webhook_endpoints drop column removed_at`.execute(db);
}
