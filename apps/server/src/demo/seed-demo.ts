import { readFileSync } from 'node:fs';
import { Temporal } from 'temporal-polyfill';
import { KeyVault } from '../auth/api-key.js';
import type { Db } from '../db/connect.js';
import { importVenueData } from '../import/import-venue-data.js';
import { revealKey } from '../keys/keys.service.js';

const DEMO_FILE = new URL('./demo-data.json', import.meta.url);
/** The demo organisation's dashboard key, with all six scopes (see demo-data.json). */
const DEMO_KEY_ID = 'de0000000001';

export interface DemoSeed {
  loaded: boolean;
  organisation: string;
  apiKey: string;
}

/**
 * A newcomer's first start: an embedded database with no organisation gets the demo data. Later starts
 * print the demo key again while it is still active, so the README's curl keeps working.
 */
export async function seedDemoDataIfEmpty(db: Db, keyEncryptionKey: Buffer): Promise<DemoSeed | undefined> {
  const vault = new KeyVault(keyEncryptionKey);
  const any = await db.selectFrom('organisations').select('id').limit(1).executeTakeFirst();
  const loaded = !any;
  if (loaded) await importVenueData(db, JSON.parse(readFileSync(DEMO_FILE, 'utf8')), vault, Temporal.Now.instant());

  const key = await db
    .selectFrom('api_keys')
    .innerJoin('organisations', 'organisations.id', 'api_keys.organisation_id')
    .select(['api_keys.id', 'organisations.slug', 'api_keys.revoked_at'])
    .where('api_keys.id', '=', DEMO_KEY_ID)
    .executeTakeFirst();
  if (!key || key.revoked_at) return undefined;
  const { key: apiKey } = await revealKey(db, vault, DEMO_KEY_ID);
  return { loaded, organisation: key.slug, apiKey };
}
