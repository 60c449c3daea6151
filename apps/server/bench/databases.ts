import pg from 'pg';
import { connect, type DatabaseHandle } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';

export const benchPostgresUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A migrated database for one benchmark: in-memory PGlite, or a fresh PostgreSQL database dropped on close. */
export async function openBenchDatabase(kind: 'pglite' | 'postgres', poolSize = 20): Promise<DatabaseHandle> {
  if (kind === 'pglite') {
    const handle = await connect({});
    await migrateToLatest(handle.db);
    return handle;
  }
  const name = `spa_bench_${process.pid}_${Date.now()}`;
  await admin(`create database ${name}`);
  const url = new URL(benchPostgresUrl);
  url.pathname = `/${name}`;
  const handle = await connect({ databaseUrl: url.toString(), poolSize });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

async function admin(text: string) {
  const client = new pg.Client({ connectionString: benchPostgresUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
