import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureBuilt } from '../../bin/build.mjs';
import { connect, fromPglite, openPglite } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { adminQuery, withDatabase } from './postgres-admin.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDumpPath: string;
    postgresTemplate: string;
  }
}

/**
 * Builds dist/ if the sources changed (the CLI and server processes the tests start, and the availability worker
 * threads, run the compiled entries as `pnpm start` does). Migrates once: a PGlite data dir dumped to a file (loading it is ~5x faster than a fresh instance),
 * and, with DATABASE_URL, a template database that each test file clones.
 */
export default async function setup(project: TestProject) {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'spa-test-'));
  const pglite = await openPglite({});
  await migrateToLatest(fromPglite(pglite).db);
  const dumpPath = join(dir, 'migrated.tar');
  writeFileSync(dumpPath, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await pglite.close();
  project.provide('pgliteDumpPath', dumpPath);

  const url = process.env.DATABASE_URL;
  const template = `spa_test_template_${process.pid}`;
  if (url) {
    await adminQuery(url, `drop database if exists ${template}`);
    await adminQuery(url, `create database ${template}`);
    const handle = await connect({ databaseUrl: withDatabase(url, template), poolSize: 1 });
    await migrateToLatest(handle.db);
    await handle.close();
  }
  project.provide('postgresTemplate', url ? template : '');

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (url) await adminQuery(url, `drop database if exists ${template}`);
  };
}
