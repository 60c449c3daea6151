import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import { PreparingClient } from './preparing-client.js';
import type { Database } from './schema.js';
import { typeParsers } from './type-parsers.js';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  /** `postgres` for a real server (DATABASE_URL), `pglite` for the embedded one. */
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** A PostgreSQL URL; when absent, the embedded PGlite database in dataDir is used. */
  databaseUrl?: string | undefined;
  /** Directory of the embedded database; undefined keeps it in memory (tests). */
  dataDir?: string | undefined;
  poolSize?: number;
}

export async function connect(options: ConnectOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? connectPostgres(options.databaseUrl, options.poolSize ?? 10)
    : connectPglite(options.dataDir);
}

function connectPostgres(url: string, max: number): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    Client: PreparingClient,
    // Every session in UTC, so timestamptz text is the same on every machine.
    options: '-c TimeZone=UTC',
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        typeParsers[oid] ??
        (pg.types.getTypeParser(oid, format) as (value: string) => unknown)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client the server drops (restart, admin termination) leaves the pool; the next query reconnects.
  // Without a listener, pg would turn it into an uncaught exception that kills the process.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', close: () => db.destroy() };
}

async function connectPglite(dataDir: string | undefined): Promise<DatabaseHandle> {
  if (!dataDir) return fromPglite(await openPglite({}));
  mkdirSync(dataDir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  try {
    const handle = fromPglite(await openPglite({ dataDir }));
    return { ...handle, close: () => handle.close().finally(unlock) };
  } catch (error) {
    unlock();
    throw error;
  }
}

/** An embedded PostgreSQL with the extension and parsers the schema needs, its session in UTC. */
export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob }): Promise<PGlite> {
  const pglite = await PGlite.create({ ...options, extensions: { btree_gist }, parsers: typeParsers });
  await pglite.exec(`set TimeZone = 'UTC'`);
  return pglite;
}

/** Wraps an open PGlite instance (tests clone one migrated instance instead of migrating again). */
export function fromPglite(pglite: PGlite): DatabaseHandle {
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}
