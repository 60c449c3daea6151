import type { Config } from '../config/config.js';
import { connect, type DatabaseHandle } from './connect.js';
import { migrateToLatest } from './migrate.js';

type MigrationSettings = Pick<
  Config,
  'databaseUrl' | 'databaseListenUrl' | 'dbAcquireTimeoutMs' | 'preparedStatements'
>;

/**
 * Migrates the database a process (the server, a CLI command) opened: the embedded one through its own handle; a
 * PostgreSQL server on a connection of its own, to the primary directly (DATABASE_LISTEN_URL, past any pooler), with
 * no statement or lock timeout.
 * - Directly: Kysely's migrator takes a session-level advisory lock (`pg_advisory_lock`, released by
 *   `pg_advisory_unlock` on the same client after the migration transaction). Through a transaction pooler each of
 *   those may run on a different server connection, so the unlock can miss and leave the lock held on a pooled
 *   connection, where every later migration (a deploy, each CLI command) waits for it until its timeout. Seen as
 *   `spa keys revoke` failing under load behind PgBouncer (test/fleet/pgbouncer-fleet.test.ts).
 * - No timeouts: building an index on a large table may take longer than any request should, and a deploy must not
 *   fail for it (and behind a pooler the startup options that would lift them are ignored).
 */
export async function migrateDatabase(config: MigrationSettings, database: DatabaseHandle): Promise<void> {
  if (!config.databaseUrl) return migrateToLatest(database.db);
  const migrator = await connect({
    databaseUrl: config.databaseListenUrl ?? config.databaseUrl,
    poolSize: 1,
    statementTimeoutMs: 0,
    lockTimeoutMs: 0,
    queryTimeoutMs: 0,
    acquireTimeoutMs: config.dbAcquireTimeoutMs,
    preparedStatements: config.preparedStatements,
  });
  try {
    await migrateToLatest(migrator.db);
  } finally {
    await migrator.close();
  }
}
