import { DEFAULT_MIGRATION_TABLE, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Db } from './connect.js';
import * as domain from '../migrations/0001_domain.js';
import * as rateLimits from '../migrations/0002_rate_limits.js';
import * as webhooks from '../migrations/0003_webhooks.js';
import * as apiKeyChanges from '../migrations/0004_api_key_changes.js';
import * as snapshotLookups from '../migrations/0005_snapshot_lookups.js';
import * as dashboard from '../migrations/0006_dashboard.js';
import * as dashboardResources from '../migrations/0007_dashboard_resources.js';
import * as apiKeyInserts from '../migrations/0008_api_key_inserts.js';
import * as retention from '../migrations/0009_retention.js';
import * as availabilityChanges from '../migrations/0010_availability_changes.js';
import * as dashboardRoundTwo from '../migrations/0011_dashboard_round_two.js';
import * as testMode from '../migrations/0012_test_mode.js';
import * as rescheduleAndAcceptances from '../migrations/0013_reschedule_and_acceptances.js';
import * as eventsFeed from '../migrations/0014_events_feed.js';
import * as endpointRemoval from '../migrations/0015_endpoint_removal.js';
import * as availabilityChangeLog from '../migrations/0016_availability_change_log.js';
import { isDatabaseUnavailable } from './database-errors.js';

/** Migrations are imported statically so they run the same from tsx, tests and a bundle. */
const migrations: Record<string, Migration> = {
  '0001_domain': domain,
  '0002_rate_limits': rateLimits,
  '0003_webhooks': webhooks,
  '0004_api_key_changes': apiKeyChanges,
  '0005_snapshot_lookups': snapshotLookups,
  '0006_dashboard': dashboard,
  '0007_dashboard_resources': dashboardResources,
  '0008_api_key_inserts': apiKeyInserts,
  '0009_retention': retention,
  '0010_availability_changes': availabilityChanges,
  '0011_dashboard_round_two': dashboardRoundTwo,
  '0012_test_mode': testMode,
  '0013_reschedule_and_acceptances': rescheduleAndAcceptances,
  '0014_events_feed': eventsFeed,
  '0015_endpoint_removal': endpointRemoval,
  '0016_availability_change_log': availabilityChangeLog,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

export async function migrateToLatest(db: Db): Promise<void> {
  if (await isUpToDate(db)) return;
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error);
    // Kysely reports a database it cannot reach as a failed migration run; say what it is.
    const what = failed
      ? `Migration ${failed.migrationName} failed`
      : isDatabaseUnavailable(error) || isConnectionError(error)
        ? 'Cannot connect to the database'
        : 'Migrating the database failed';
    throw new Error(`${what}: ${reason}`, { cause: error });
  }
}

/**
 * Whether every migration is applied and no other: one read, where Kysely's Migrator (creating its tables if
 * missing, taking its lock, reading the list under it) costs ~150 ms of every embedded start. Read-only, so it needs
 * no lock: a migration still running elsewhere has not recorded its name yet, and then the Migrator runs and waits
 * for it as before. Any doubt (no table yet, a name it does not know) is left to the Migrator to settle or report.
 */
async function isUpToDate(db: Db): Promise<boolean> {
  try {
    const { rows: applied } = await sql<{
      name: string;
    }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)} order by name`.execute(db);
    const known = Object.keys(migrations).sort();
    return applied.length === known.length && applied.every((row, i) => row.name === known[i]);
  } catch {
    return false;
  }
}

function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code ?? '';
  return ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', '3D000', '28P01', '28000'].includes(
    code,
  );
}
