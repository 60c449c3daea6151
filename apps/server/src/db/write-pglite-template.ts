import { renameSync, rmSync } from 'node:fs';
import { fromPglite, openPglite } from './connect.js';
import { migrateToLatest } from './migrate.js';

/**
 * `node dist/write-pglite-template.js OUT`: makes a migrated, empty embedded database in the directory OUT
 * (pglite-template.ts says why), its files private as every DATA_DIR's. An entry of the build only; nothing
 * imports it.
 */
const out = process.argv[2];
if (!out) throw new Error('usage: node dist/write-pglite-template.js OUT');
const partial = `${out}.${process.pid}`;
rmSync(partial, { recursive: true, force: true });
const pglite = await openPglite({ dataDir: partial });
try {
  await migrateToLatest(fromPglite(pglite).db);
} finally {
  await pglite.close();
}
renameSync(partial, out);
