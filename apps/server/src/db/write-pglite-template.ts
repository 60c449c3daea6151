import { cpSync, renameSync, rmSync } from 'node:fs';
import { sql } from 'kysely';
import { writeDemoSnapshot } from '../demo/demo-snapshot.js';
import { type Db, fromPglite, openPglite } from './connect.js';
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
  else {
    await migrateToLatest(db);
    await dropTemplateDatabases(db);
  }
} finally {
  await pglite.close();
}
renameSync(partial, out);

/**
 * initdb's template0 and template1 exist for CREATE DATABASE, which nothing runs on the embedded database (the
 * server uses `postgres`, and no other client can reach it). They are 600 of the template's 1,100 files, and
 * copying a file costs a first start about 0.3 ms whatever its size: dropped, the copy takes half as long.
 */
async function dropTemplateDatabases(db: Db) {
  for (const name of ['template0', 'template1']) {
    await sql`alter database ${sql.id(name)} is_template false`.execute(db);
    await sql`drop database ${sql.id(name)}`.execute(db);
  }
}
