import { readFileSync } from 'node:fs';
import { Temporal } from 'temporal-polyfill';
import { KeyVault } from '../auth/api-key.js';
import type { Db } from '../db/connect.js';
import { importVenueData } from '../import/import-venue-data.js';
import { OperatorError, revealKey } from '../keys/keys.service.js';

const DEMO_FILE = new URL('./demo-data.json', import.meta.url);
/** Maisons Lumière, whose dashboard key `de0000000001` has all six scopes (see demo-data.json and the README). */
const DEMO_ORGANISATION_ID = 'e3a10eef-7100-5940-b852-5a743dcd2e2b';

export interface DemoSeed {
  /** True when this call imported the demo data; false when it was already there. */
  loaded: boolean;
  organisation: string;
  apiKey: string;
}

/**
 * A newcomer's first start: a database with no organisation gets the demo data. Later starts print the
 * demo organisation's active dashboard key again (the regenerated one, if it was regenerated), so the
 * README's curl keeps working. Undefined when the demo organisation is not there or has no usable key.
 */
export async function seedDemoDataIfEmpty(db: Db, keyEncryptionKey: Buffer): Promise<DemoSeed | undefined> {
  const vault = new KeyVault(keyEncryptionKey);
  const any = await db.selectFrom('organisations').select('id').limit(1).executeTakeFirst();
  const loaded = !any;
  if (loaded) await importVenueData(db, JSON.parse(readFileSync(DEMO_FILE, 'utf8')), vault, Temporal.Now.instant());

  const key = await db
    .selectFrom('api_keys')
    .innerJoin('organisations', 'organisations.id', 'api_keys.organisation_id')
    .select(['api_keys.id', 'organisations.slug'])
    .where('api_keys.organisation_id', '=', DEMO_ORGANISATION_ID)
    .where('api_keys.kind', '=', 'dashboard')
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!key) return undefined;
  try {
    return { loaded, organisation: key.slug, apiKey: (await revealKey(db, vault, key.id)).key };
  } catch (error) {
    // Stored under another KEY_ENCRYPTION_KEY: the server still starts, it just cannot print the key.
    if (error instanceof OperatorError) return undefined;
    throw error;
  }
}
