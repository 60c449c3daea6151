import type { PGlite } from '@electric-sql/pglite';
import { KeyVault } from '../auth/api-key.js';
import { dataDirOf, loadConfig } from '../config/config.js';
import { connect, type Db } from '../db/connect.js';
import { migrateDatabase } from '../db/migrate-database.js';
import { type Clock, systemClock } from '../lib/clock.js';

export interface OperatorContext {
  db: Db;
  vault: KeyVault;
  /** PUBLIC_URL of the server, which invitation URLs start with. */
  publicUrl: string;
  /** The embedded database, when that is the one open (spa backup). */
  pglite?: PGlite | undefined;
  /** Its DATA_DIR. */
  dataDir?: string | undefined;
}

/** The two output streams of a run, written raw (commander's own help and errors go there too). */
export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Where a command runs: its database work, the user's directory (relative paths), its output and clock. */
export interface CommandHost {
  cwd: string;
  io: CommandIo;
  clock: Clock;
  /** DATA_DIR, for a command on its own over the embedded database (spa restore replaces it, closed). */
  embeddedDataDir?: string;
  withContext<T>(action: (context: OperatorContext) => Promise<T>): Promise<T>;
}

/** Prints one line on stdout. */
export const print = (host: CommandHost, line: string) => host.io.stdout(`${line}\n`);

/** A host over a database that is already open: the server's own (a forwarded command), or a test's. */
export function contextHost(
  context: OperatorContext,
  options: { cwd: string; io: CommandIo; clock?: Clock },
): CommandHost {
  return { clock: systemClock, ...options, withContext: (action) => action(context) };
}

/** A command on its own: it connects with the server's settings (DATABASE_URL or DATA_DIR), migrated first. */
export function standaloneHost(env: Record<string, string | undefined>, io: CommandIo): CommandHost {
  return {
    cwd: env.INIT_CWD ?? process.cwd(), // pnpm runs scripts inside the package; paths mean the user's directory
    io,
    clock: systemClock,
    ...(env.DATABASE_URL ? {} : { embeddedDataDir: dataDirOf(env) }),
    withContext: async (action) => {
      const config = loadConfig(env);
      const database = await connect({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        poolSize: 2,
        preparedStatements: config.preparedStatements,
        onWarning: (_fields, message) => io.stderr(`Warning: ${message}\n`),
      });
      try {
        await migrateDatabase(config, database);
        return await action({
          db: database.db,
          vault: new KeyVault(config.keyEncryptionKey),
          publicUrl: config.publicUrl,
          pglite: database.pglite,
          dataDir: database.pglite ? config.dataDir : undefined,
        });
      } finally {
        await database.close();
      }
    },
  };
}
