import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { fromPglite, openPglite, PGLITE_SHARED_BUFFERS } from '../../src/db/connect.js';
import { seedDataDirFromTemplate } from '../../src/db/pglite-template.js';
import { testDbKind } from '../support/test-db.js';

/** The build's template (the test run's global setup builds dist/ first). */
const TEMPLATE = fileURLToPath(new URL('../../dist/pglite-template', import.meta.url));
const MIGRATIONS = readdirSync(fileURLToPath(new URL('../../src/migrations', import.meta.url)))
  .map((file) => file.replace(/\.ts$/, ''))
  .sort();

// The embedded database only: it runs once, in the PGlite project.
describe.skipIf(testDbKind !== 'pglite')("the build's embedded database template", () => {
  const dir = mkdtempSync(join(tmpdir(), 'spa-template-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts an empty DATA_DIR as a database with every migration applied, and never copies over a database', async () => {
    const data = join(dir, 'data');
    expect(seedDataDirFromTemplate(data, TEMPLATE)).toBe(true);
    const pglite = await openPglite({ dataDir: data });
    try {
      const db = fromPglite(pglite).db;
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
      expect(applied.rows.map((r) => r.name)).toEqual(MIGRATIONS);
      // The one database the server uses: initdb's templates are dropped (write-pglite-template.ts).
      const databases = await sql<{ name: string }>`select datname as name from pg_database`.execute(db);
      expect(databases.rows).toEqual([{ name: 'postgres' }]);
      // Opened with the embedded database's small buffer pool (connect.ts), whatever its postgresql.conf says.
      const buffers = await sql<{ size: string }>`select current_setting('shared_buffers') as size`.execute(db);
      expect(buffers.rows[0]!.size).toBe(PGLITE_SHARED_BUFFERS);
      // The latest migration's triggers are there, and the database is empty of data.
      const triggers = await sql<{ n: number }>`
        select count(*)::int as n from pg_trigger where tgname like '%availability_changed'`.execute(db);
      expect(triggers.rows[0]!.n).toBe(13);
      expect(await db.selectFrom('organisations').select('id').execute()).toEqual([]);
      await db
        .insertInto('organisations')
        .values({ id: '00000000-0000-4000-8000-000000000001', slug: 'kept', name: 'Kept' })
        .execute();
    } finally {
      await pglite.close();
    }
    expect(seedDataDirFromTemplate(data, TEMPLATE)).toBe(false);
    const reopened = await openPglite({ dataDir: data });
    try {
      const kept = await fromPglite(reopened).db.selectFrom('organisations').select('slug').execute();
      expect(kept).toEqual([{ slug: 'kept' }]);
    } finally {
      await reopened.close();
    }
  });

  it('leaves a DATA_DIR to initdb when there is no template (running from the sources)', () => {
    expect(seedDataDirFromTemplate(join(dir, 'none'), join(dir, 'no-template'))).toBe(false);
  });
});
