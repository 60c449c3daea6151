import { KeyVault } from '../auth/api-key.js';
import { loadConfig } from '../config/config.js';
import { connect, type Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';

export interface OperatorContext {
  db: Db;
  vault: KeyVault;
}

/** Runs one CLI action on the server's own database settings (DATABASE_URL or DATA_DIR), migrated first. */
export async function withOperatorContext<T>(action: (context: OperatorContext) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env);
  const database = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    await migrateToLatest(database.db);
    return await action({ db: database.db, vault: new KeyVault(config.keyEncryptionKey) });
  } finally {
    await database.close();
  }
}
