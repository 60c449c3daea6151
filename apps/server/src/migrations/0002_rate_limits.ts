import { type Kysely, sql } from 'kysely';

/**
 * The shared counts of the per-key rate limits, in the layout rate-limiter-flexible's PostgreSQL store reads
 * and writes (`key`, `points` used in the window, `expire` in epoch milliseconds). Every server process on the
 * database counts here, so two processes never allow twice a key's quota.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute();
  // Windows that ended an hour ago are deleted by expire (retention/retention-rules.ts).
  await db.schema.createIndex('rate_limits_expire_idx').on('rate_limits').column('expire').execute();
  await sql`comment on table rate_limits is 'per-key request counts of the current minute (rate-limiter-flexible)'`.execute(
    db,
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
}
