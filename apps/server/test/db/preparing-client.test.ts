import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type DatabaseHandle } from '../../src/db/connect.js';
import { withDatabase } from '../support/postgres-admin.js';
import { openTestDatabase, testDbKind } from '../support/test-db.js';

// The named statements are pg's; PGlite runs in process and plans nothing over a wire.
describe.skipIf(testDbKind !== 'postgres')('statements on PostgreSQL are prepared once per connection', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase({ poolSize: 1 });
  });
  afterAll(() => handle.close());

  it('runs a parameterised statement as a named prepared statement, and its repeats reuse it', async () => {
    const text = 'select $1::int + 1 as n';
    for (const value of [1, 2, 3]) {
      const { rows } = await sql<{ n: number }>`select ${value}::int + 1 as n`.execute(handle.db);
      expect(rows).toEqual([{ n: value + 1 }]);
    }
    // One pooled connection: the statements this session prepared are the ones we ran.
    const { rows } = await sql<{
      name: string;
      statement: string;
    }>`select name, statement from pg_prepared_statements`.execute(handle.db);
    const ours = rows.filter((r) => r.statement === text);
    expect(ours).toHaveLength(1);
    expect(ours[0]!.name).toMatch(/^k_[0-9a-f]{40}$/);
  });

  it('sends every statement unnamed with prepared statements off (DATABASE_PREPARED_STATEMENTS=false)', async () => {
    const unnamed = await connect({
      databaseUrl: withDatabase(process.env.DATABASE_URL!, (handle as DatabaseHandle & { name: string }).name),
      poolSize: 1,
      preparedStatements: false,
    });
    try {
      for (const value of [1, 2, 3]) {
        const { rows } = await sql<{ n: number }>`select ${value}::int * 10 as n`.execute(unnamed.db);
        expect(rows).toEqual([{ n: value * 10 }]);
      }
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(
        unnamed.db,
      );
      expect(rows).toEqual([{ n: 0 }]);
    } finally {
      await unnamed.close();
    }
  });
});
