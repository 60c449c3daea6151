import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { KeyVault } from '../../../src/auth/api-key.js';
import { connect, type DatabaseHandle, fromPglite, openPglite } from '../../../src/db/connect.js';
import { makeBookableVenue } from '../../support/booking-fixture.js';
import { adminQuery, withDatabase } from '../../support/postgres-admin.js';
import { openTestDatabase, testDbKind } from '../../support/test-db.js';

export interface SeededDatabase {
  /** What a child server needs to serve this database: DATABASE_URL or DATA_DIR, and the key encryption key. */
  env: Record<string, string>;
  fixture: Awaited<ReturnType<typeof makeBookableVenue>>;
  /** The PostgreSQL database's name (for faults aimed at it); undefined on PGlite. */
  name: string | undefined;
  /** A connection of the test's own, opened after the servers are gone on PGlite (one process at a time). */
  open(): Promise<DatabaseHandle>;
  drop(): Promise<void>;
}

/**
 * A bookable venue (`rooms` rooms and therapists, open 09:00–18:00) in a database a child server can open:
 * a PostgreSQL database cloned from the migrated template, or a PGlite data directory in a temp folder.
 */
export async function seedDatabase(options: { rooms?: number } = {}): Promise<SeededDatabase> {
  const keyEncryptionKey = randomBytes(32);
  const vault = new KeyVault(keyEncryptionKey);
  const counts = { rooms: options.rooms ?? 4, therapists: options.rooms ?? 4 };
  if (testDbKind === 'postgres') {
    const handle = await openTestDatabase({ poolSize: 4 });
    const fixture = await makeBookableVenue(handle.db, vault, counts);
    const url = withDatabase(process.env.DATABASE_URL!, handle.name!);
    await handle.db.destroy(); // the seeding pool goes; the servers under test open their own
    return {
      env: { DATABASE_URL: url, KEY_ENCRYPTION_KEY: keyEncryptionKey.toString('hex') },
      fixture,
      name: handle.name,
      open: () => connect({ databaseUrl: url, poolSize: 2 }),
      drop: () => adminQuery(process.env.DATABASE_URL!, `drop database if exists ${handle.name!} with (force)`),
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'spa-fault-'));
  const dump = new Blob([readFileSync(inject('pgliteDumpPath'))]);
  const seeded = fromPglite(await openPglite({ dataDir, loadDataDir: dump }));
  const fixture = await makeBookableVenue(seeded.db, vault, counts);
  await seeded.close();
  return {
    env: { DATA_DIR: dataDir, KEY_ENCRYPTION_KEY: keyEncryptionKey.toString('hex') },
    fixture,
    name: undefined,
    open: () => connect({ dataDir }),
    drop: () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })),
  };
}
