import { adminQuery, withDatabase } from '../test/support/postgres-admin.js';
import { connect, type DatabaseHandle } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';

export const benchPostgresUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A migrated database for one benchmark: in-memory PGlite, or a fresh PostgreSQL database dropped on close
 * (with its URL, for a second client of the same database).
 */
export async function openBenchDatabase(
  kind: 'pglite' | 'postgres',
  poolSize = 20,
): Promise<DatabaseHandle & { url?: string }> {
  if (kind === 'pglite') {
    const handle = await connect({});
    await migrateToLatest(handle.db);
    return handle;
  }
  const name = `spa_bench_${process.pid}_${Date.now()}`;
  await adminQuery(benchPostgresUrl, `create database ${name}`);
  const url = withDatabase(benchPostgresUrl, name);
  const handle = await connect({ databaseUrl: url, poolSize });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    url,
    close: async () => {
      await handle.close();
      await adminQuery(benchPostgresUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
