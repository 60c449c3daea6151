import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/connect.js';
import { type DeclaredColumn, declaredSchema } from '../support/schema-types.js';
import { openTestDatabase } from '../support/test-db.js';

interface DatabaseColumn {
  table_name: string;
  column_name: string;
  is_nullable: 'YES' | 'NO';
  data_type: string;
  has_default: boolean;
}

/** What a column's PostgreSQL type reads back as, through db/type-parsers.ts (int8 and numeric as numbers). */
function kindOf(dataType: string): string {
  if (['smallint', 'integer', 'bigint', 'numeric', 'real', 'double precision'].includes(dataType)) return 'number';
  if (dataType === 'boolean') return 'boolean';
  if (dataType === 'ARRAY') return 'array';
  if (dataType === 'json' || dataType === 'jsonb') return 'object';
  return 'string';
}

/**
 * src/db/schema.ts is written by hand; this proves it says what the migrations made, on the migrated database of
 * each engine: the same tables, the same columns, the same nullability, a JavaScript type of the column's kind,
 * and no column an insert may leave out unless the database fills it (a default, an identity, or null).
 */
describe('src/db/schema.ts against the migrated database', () => {
  let handle: DatabaseHandle;
  let actual: Map<string, Map<string, DatabaseColumn>>;
  let declared: Map<string, Map<string, DeclaredColumn>>;

  beforeAll(async () => {
    handle = await openTestDatabase();
    const { rows } = await sql<DatabaseColumn>`
      select c.table_name, c.column_name, c.is_nullable, c.data_type,
             (c.column_default is not null or c.is_identity = 'YES' or c.is_generated = 'ALWAYS') as has_default
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.table_name not like 'kysely_migration%'
      order by c.table_name, c.ordinal_position
    `.execute(handle.db);
    actual = new Map();
    for (const row of rows) {
      if (!actual.has(row.table_name)) actual.set(row.table_name, new Map());
      actual.get(row.table_name)!.set(row.column_name, row);
    }
    declared = declaredSchema();
  }, 60_000);
  afterAll(() => handle.close());

  it('declares every table the migrations make, and no other', () => {
    expect([...declared.keys()].sort()).toEqual([...actual.keys()].sort());
  });

  it('declares every column of each table, and no other', () => {
    const columns = (m: Map<string, Map<string, unknown>>) =>
      [...m].flatMap(([table, cols]) => [...cols.keys()].map((c) => `${table}.${c}`)).sort();
    expect(columns(declared)).toEqual(columns(actual));
  });

  it('declares each column nullable exactly when the database allows null, with a type of its kind', () => {
    const mismatches: string[] = [];
    for (const [table, columns] of actual)
      for (const [name, column] of columns) {
        const d = declared.get(table)?.get(name);
        if (!d) continue; // reported by the test above
        const nullable = column.is_nullable === 'YES';
        if (d.nullable !== nullable)
          mismatches.push(`${table}.${name}: ${nullable ? 'nullable' : 'not null'} in the database`);
        if (d.kind !== kindOf(column.data_type))
          mismatches.push(`${table}.${name}: ${column.data_type} in the database, ${d.kind} in schema.ts`);
        if (d.insertOptional && !column.has_default && !nullable)
          mismatches.push(`${table}.${name}: optional on insert in schema.ts, but the database has no default`);
      }
    expect(mismatches).toEqual([]);
  });
});
