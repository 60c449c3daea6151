import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openTestDatabase, testDbKind } from '../support/test-db.js';

const appliedNames = async (handle: DatabaseHandle) =>
  (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db)).rows.map(
    (row) => row.name,
  );

/** migrate.ts answers "nothing to do" from one read when every migration is applied, and leaves doubt to Kysely. */
describe('migrateToLatest on a migrated database', () => {
  let handle: DatabaseHandle;
  let applied: string[];

  beforeAll(async () => {
    handle = await openTestDatabase({ statementTimeoutMs: 2000 });
    applied = await appliedNames(handle);
  }, 60_000);
  afterAll(() => handle.close());

  it('does nothing, and records nothing', async () => {
    await migrateToLatest(handle.db);
    expect(await appliedNames(handle)).toEqual(applied);
    expect(applied.length).toBeGreaterThanOrEqual(10);
  });

  it.runIf(testDbKind === 'postgres')(
    "needs no lock: it answers while another session holds Kysely's migration lock",
    async () => {
      await handle.db.transaction().execute(async (trx) => {
        await sql`lock table kysely_migration_lock in access exclusive mode`.execute(trx);
        // Through Kysely's Migrator this would wait for the lock until the statement timeout.
        await migrateToLatest(handle.db);
      });
    },
  );

  it("leaves a database it does not fully know to Kysely's Migrator, which refuses it by name", async () => {
    await sql`insert into kysely_migration (name, timestamp) values ('9999_from_a_newer_build', now())`.execute(
      handle.db,
    );
    try {
      await expect(migrateToLatest(handle.db)).rejects.toThrow(/9999_from_a_newer_build/);
    } finally {
      await sql`delete from kysely_migration where name = '9999_from_a_newer_build'`.execute(handle.db);
    }
  });
});
