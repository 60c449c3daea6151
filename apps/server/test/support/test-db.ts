import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { connect, type ConnectOptions, type DatabaseHandle, fromPglite, openPglite } from '../../src/db/connect.js';
import { adminQuery, withDatabase } from './postgres-admin.js';

/** Which database this project runs on: `pglite` (default) or `postgres` (DATABASE_URL). */
export const testDbKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * A fresh, migrated database for one test file: PGlite loaded from the migrated dump, or a PostgreSQL
 * database cloned from the migrated template. Closing it drops the clone.
 */
export async function openTestDatabase(
  options: Pick<ConnectOptions, 'poolSize' | 'statementTimeoutMs' | 'acquireTimeoutMs'> = {},
): Promise<DatabaseHandle & { name?: string }> {
  if (testDbKind === 'postgres') {
    const url = process.env.DATABASE_URL!;
    const name = `spa_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(url, `create database ${name} template ${inject('postgresTemplate')}`);
    const handle = await connect({
      ...options,
      databaseUrl: withDatabase(url, name),
      poolSize: options.poolSize ?? 10,
    });
    return {
      ...handle,
      name,
      close: async () => {
        await handle.close();
        await adminQuery(url, `drop database if exists ${name} with (force)`);
      },
    };
  }
  const dump = new Blob([readFileSync(inject('pgliteDumpPath'))]);
  return fromPglite(await openPglite({ loadDataDir: dump }));
}
