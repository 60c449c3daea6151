import { cpSync, renameSync, rmSync } from 'node:fs';
import { writeDemoSnapshot } from '../demo/demo-snapshot.js';
import { fromPglite, openPglite } from './connect.js';
import { migrateToLatest } from './migrate.js';

/**
 * `node dist/write-pglite-template.js OUT`: makes a migrated, empty embedded database in the directory OUT
 * (pglite-template.ts says why), its files private as every DATA_DIR's. `... --demo TEMPLATE OUT`: a copy of that
 * template with the demo data loaded (src/demo/demo-snapshot.ts). An entry of the build only; nothing imports it.
 */
const [first, ...rest] = process.argv.slice(2);
const demo = first === '--demo';
const [template, out] = demo ? rest : [undefined, first];
if (!out || (demo && !template)) throw new Error('usage: node dist/write-pglite-template.js [--demo TEMPLATE] OUT');
const partial = `${out}.${process.pid}`;
rmSync(partial, { recursive: true, force: true });
if (template) cpSync(template, partial, { recursive: true });
const pglite = await openPglite({ dataDir: partial });
try {
  const { db } = fromPglite(pglite);
  if (demo) await writeDemoSnapshot(db);
  else await migrateToLatest(db);
} finally {
  await pglite.close();
}
renameSync(partial, out);
