import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Db } from './connect.js';
import * as domain from '../migrations/0001_domain.js';

/** Migrations are imported statically so they run the same from tsx, tests and a bundle. */
const migrations: Record<string, Migration> = {
  '0001_domain': domain,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Db): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
