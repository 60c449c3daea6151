import { Temporal } from 'temporal-polyfill';
import type { KeyVault } from '../auth/api-key.js';
import type { Db } from '../db/connect.js';
import { importVenueData } from '../import/import-venue-data.js';
import { OperatorError } from '../errors/operator-error.js';
import { revealKey } from '../keys/keys.service.js';
// Compiled into the bundle: the built server reads no file of src/ at run time.
import demoData from './demo-data.json' with { type: 'json' };
import { DEMO_KEY_ID, DEMO_TEST_KEY_ID } from './demo-key.js';
import { addDemoAdmin } from './demo-admin.js';
import { finishDemoSnapshot } from './demo-snapshot.js';

export type DemoSeed =
  /** `testKey`: the demo test key while it is active (undefined once regenerated). */
  | { loaded: boolean; organisation: string; apiKey: string; testKey: string | undefined }
  /** The demo key was revoked (regenerated): its successor is a real secret and is never printed at start. */
  | { loaded: boolean; organisation: string; revoked: true };

/**
 * A newcomer's first start: a database with no organisation gets the demo data, and its organisation the demo
 * dashboard admin (demo-admin.ts); one copied from the build's demo snapshot is finished instead. Later starts
 * print the demo key again while it is active, so the README's curl keeps working. Undefined when the demo data
 * is not there or the key was stored under another KEY_ENCRYPTION_KEY.
 */
export async function seedDemoDataIfEmpty(db: Db, vault: KeyVault): Promise<DemoSeed | undefined> {
  // A first start from the build's demo snapshot (demo-snapshot.ts) finds the data there, but not yet its own.
  const finished = await finishDemoSnapshot(db, vault, Temporal.Now.instant());
  const empty = !finished && !(await db.selectFrom('organisations').select('id').limit(1).executeTakeFirst());
  if (empty) await importVenueData(db, demoData, vault, Temporal.Now.instant());
  const loaded = finished || empty;

  const key = await db
    .selectFrom('api_keys')
    .innerJoin('organisations', 'organisations.id', 'api_keys.organisation_id')
    .select(['api_keys.id', 'api_keys.revoked_at', 'api_keys.organisation_id', 'organisations.slug'])
    .where('api_keys.id', '=', DEMO_KEY_ID)
    .executeTakeFirst();
  if (!key) return undefined;
  if (empty) await addDemoAdmin(db, key.organisation_id, Temporal.Now.instant());
  if (key.revoked_at !== null) return { loaded, organisation: key.slug, revoked: true };
  try {
    const test = await db
      .selectFrom('api_keys')
      .select('id')
      .where('id', '=', DEMO_TEST_KEY_ID)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return {
      loaded,
      organisation: key.slug,
      apiKey: (await revealKey(db, vault, key.id)).key,
      testKey: test && (await revealKey(db, vault, test.id)).key,
    };
  } catch (error) {
    // Stored under another KEY_ENCRYPTION_KEY: the server still starts, it just cannot print the key.
    if (error instanceof OperatorError) return undefined;
    throw error;
  }
}
