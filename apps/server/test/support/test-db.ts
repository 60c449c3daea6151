import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { connect, type ConnectOptions, type DatabaseHandle, fromPglite, openPglite } from '../../src/db/connect.js';
import { adminQuery, withDatabase } from './postgres-admin.js';

/** Which database this project runs on: `pglite` (default) or `postgres` (DATABASE_URL). */
export const testDbKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * A fresh, migrated, empty database: a PostgreSQL database cloned from the migrated template (dropped on close),
 * or a PGlite instance of this worker emptied of rows. Starting a PGlite instance from the migrated dump costs
 * about a second of WebAssembly start-up and loading; emptying a used one costs one TRUNCATE. The instances
 * outlive a test file because the suite runs with `isolate: false` (vitest.config.ts).
 */
type TestDatabaseOptions = Pick<ConnectOptions, 'poolSize' | 'statementTimeoutMs' | 'acquireTimeoutMs'>;

export async function openTestDatabase(options: TestDatabaseOptions = {}): Promise<DatabaseHandle & { name?: string }> {
  return testDbKind === 'postgres' ? clonePostgres(options) : borrowPglite();
}

async function clonePostgres(options: TestDatabaseOptions): Promise<DatabaseHandle & { name: string }> {
  const url = process.env.DATABASE_URL!;
  const name = `spa_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `create database ${name} template ${inject('postgresTemplate')}`);
  const handle = await connect({ ...options, databaseUrl: withDatabase(url, name), poolSize: options.poolSize ?? 10 });
  return {
    ...handle,
    name,
    close: async () => {
      await handle.close();
      await adminQuery(url, `drop database if exists ${name} with (force)`);
    },
  };
}

/** Idle PGlite instances of this worker, each with the tables of the migrated dump. */
const idle: PGlite[] = [];
let migratedTables: number | undefined;

async function borrowPglite(): Promise<DatabaseHandle> {
  const reused = idle.pop();
  const pglite = reused ?? (await openPglite({ loadDataDir: new Blob([readFileSync(inject('pgliteDumpPath'))]) }));
  if (reused) await emptyTables(pglite);
  migratedTables ??= await tableCount(pglite);
  // Kysely's PGlite driver closes the instance on destroy, so the handle is dropped instead and the instance kept.
  const { db, listen } = fromPglite(pglite);
  return {
    db,
    kind: 'pglite',
    listen,
    close: async () => {
      // A test that changed the schema (a dropped table) gives its instance up.
      if ((await tableCount(pglite)) === migratedTables) idle.push(pglite);
      else await pglite.close();
    },
  };
}

/** The tables the migrations make, less Kysely's own bookkeeping: a `from` clause. */
export const USER_TABLES = `from pg_tables where schemaname = 'public' and tablename not like 'kysely_migration%'`;

async function tableCount(pglite: PGlite): Promise<number> {
  const { rows } = await pglite.query<{ n: number }>(`select count(*)::int as n ${USER_TABLES}`);
  return rows[0]!.n;
}

/** Every row gone and identities restarted: the state the migrated dump starts in. */
async function emptyTables(pglite: PGlite): Promise<void> {
  const { rows } = await pglite.query<{ name: string }>(`select quote_ident(tablename) as name ${USER_TABLES}`);
  await pglite.exec(`truncate ${rows.map((r) => r.name).join(', ')} restart identity cascade`);
}
