import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { KeyVault } from '../auth/api-key.js';
import type { Db } from '../db/connect.js';
import { importVenueData } from '../import/import-venue-data.js';
import type { Trx } from '../import/upsert.js';
import { upsertApiKeys } from '../import/upsert-keys.js';
import { VenueDataFile } from '../import/venue-data.schema.js';
import { addDemoAdmin } from './demo-admin.js';
import demoData from './demo-data.json' with { type: 'json' };
import { DEMO_KEY_ID } from './demo-key.js';

/**
 * The demo data as a first start would load it, loaded by the build instead (docs/decisions.md, "Build and start").
 * Importing it into a fresh embedded database took 0.3-1.2 s of a first start, nearly all of it PostgreSQL's
 * first-time work (each table's catalog entries, constraints and plans), and a first start has 2 s in all. So the
 * build imports it into a copy of the migrated template, through the same importer, and a first start with demo
 * data copies that instead. Two things of the import belong to the install and the moment, not to the build:
 * - the API keys, stored encrypted and HMACed under this install's KEY_ENCRYPTION_KEY: left out of the snapshot;
 * - every timestamp the import took from its clock (created_at, a pending booking's offers, whose timeout counts
 *   from them): the build lists those columns, found as the ones holding only instants of its import.
 * The first start finishes the snapshot in one transaction: those columns set to its own instant, the keys imported
 * under its vault, the marker removed. Until then the database carries the marker (its comment), so a start cut
 * short finishes it next time, and a database that was never a snapshot is never touched.
 */
const MARKER = 'spa demo snapshot, unfinished: ';

/** Per table, the columns whose every value came from the import's clock. */
type ClockColumns = Record<string, string[]>;

/** Build side: loads the demo data, less its keys, into a migrated database, and marks it unfinished. */
export async function writeDemoSnapshot(db: Db): Promise<void> {
  const from = Temporal.Now.instant();
  // The snapshot holds no key, so this vault never encrypts anything; the start imports the keys under its own.
  await importVenueData(db, { ...demoData, api_keys: [] }, new KeyVault(randomBytes(32)), from);
  await addDemoAdmin(db, demoOrganisationId(), Temporal.Now.instant());
  const columns = await importClockColumns(db, from, Temporal.Now.instant());
  const marker = sql.lit(MARKER + JSON.stringify(columns));
  await sql`comment on database ${await currentDatabase(db)} is ${marker}`.execute(db);
}

/**
 * Start side: finishes a snapshot copied into this database (see above); false when there is none to finish.
 * Runs before anything else reads the demo data.
 */
export async function finishDemoSnapshot(db: Db, vault: KeyVault, now: Temporal.Instant): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const columns = await readMarker(trx);
    if (!columns) return false;
    for (const [table, names] of Object.entries(columns)) {
      // Every value of these columns is the build's clock: each becomes this start's instant, and a null stays null.
      const assignments = names.map(
        (name) =>
          sql`${sql.ref(name)} = case when ${sql.ref(name)} is not null then ${now.toString()}::timestamptz end`,
      );
      await sql`update ${sql.table(table)} set ${sql.join(assignments)}`.execute(trx);
    }
    // Checked as the importer checks a file's keys (the snapshot's build checked the rest).
    await upsertApiKeys(trx, vault, VenueDataFile.shape.api_keys.parse(demoData.api_keys), now.toString());
    await sql`comment on database ${await currentDatabase(trx)} is null`.execute(trx);
    return true;
  });
}

/** The organisation of the demo key, whose admin the demo has. */
const demoOrganisationId = () => demoData.api_keys.find((key) => key.id === DEMO_KEY_ID)!.organisation_id;

/**
 * The timestamp columns the import filled from its clock: every value inside [from, until]. A column with values
 * both inside and outside is a column this cannot tell, and the build refuses it (the start then imports as before).
 */
async function importClockColumns(db: Db, from: Temporal.Instant, until: Temporal.Instant): Promise<ClockColumns> {
  const { rows: candidates } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = 'public' and data_type in ('timestamp with time zone', 'timestamp without time zone')
    order by table_name, column_name`.execute(db);
  const columns: ClockColumns = {};
  for (const { table_name: table, column_name: column } of candidates) {
    const { rows } = await sql<{ inside: number; outside: number }>`
      select count(*) filter (where c between ${from.toString()}::timestamptz and ${until.toString()}::timestamptz)::int as inside,
             count(*) filter (where c not between ${from.toString()}::timestamptz and ${until.toString()}::timestamptz)::int as outside
      from (select ${sql.ref(column)} as c from ${sql.table(table)}) as t`.execute(db);
    const { inside, outside } = rows[0]!;
    if (inside > 0 && outside > 0)
      throw new Error(`${table}.${column} holds both the import's clock and other instants: it cannot be rebased`);
    if (inside > 0) (columns[table] ??= []).push(column);
  }
  return columns;
}

async function readMarker(trx: Trx): Promise<ClockColumns | undefined> {
  const { rows } = await sql<{ comment: string | null }>`
    select shobj_description(oid, 'pg_database') as comment from pg_database
    where datname = current_database()`.execute(trx);
  const comment = rows[0]?.comment;
  return comment?.startsWith(MARKER) ? (JSON.parse(comment.slice(MARKER.length)) as ClockColumns) : undefined;
}

/** The database's name as an identifier: COMMENT ON names it, and takes no parameters (hence sql.lit above). */
async function currentDatabase(db: Db | Trx) {
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db);
  return sql.id(rows[0]!.name);
}
