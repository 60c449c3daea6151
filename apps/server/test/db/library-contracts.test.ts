import { Kysely, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/connect.js';
import type { Database } from '../../src/db/schema.js';

/**
 * The two places the data layer leans on library behaviour no API promises (docs/decisions.md, "Two query
 * styles, pinned"): src/db/compiled-query.ts hands Kysely stand-in objects as values, and
 * src/db/preparing-client.ts overrides pg.Client.query for the call Kysely's driver makes. A Kysely or pg
 * upgrade that changes either fails here, by name, instead of silently (slower statements, or wrong parameters).
 */

/** A Kysely that compiles only (no connection): what compiledQuery does once per database. */
const compiler: Db = new Kysely<Database>({
  dialect: new PostgresDialect({ pool: {} as pg.Pool }),
});

class StandIn {
  constructor(readonly name: string) {}
}

/** Every construct the compiled queries use (venues and customers repositories): joins, subqueries, paging. */
function everyConstruct(db: Db, p: { org: unknown; id: unknown; variant: unknown; limit: unknown; offset: unknown }) {
  return db
    .selectFrom('venues')
    .innerJoin('organisations', 'organisations.id', 'venues.organisation_id')
    .select(['venues.id', 'venues.slug'])
    .select((eb) =>
      eb
        .selectFrom('variants')
        .select('variants.id')
        .where('variants.id', '=', p.variant as string)
        .as('variant'),
    )
    .select(sql<number>`count(*) over ()`.as('total'))
    .where('venues.organisation_id', '=', p.org as string)
    .where((eb) => eb.or([eb('venues.id', '=', p.id as string), eb('venues.slug', '=', p.id as string)]))
    .orderBy('venues.slug')
    .limit(p.limit as number)
    .offset(p.offset as number);
}

describe('Kysely compiles a value it is given into a parameter, untouched (compiled-query.ts)', () => {
  it('keeps each stand-in object, by identity, as a parameter in place of the value, with the same SQL text', () => {
    const standIns = {
      org: new StandIn('org'),
      id: new StandIn('id'),
      variant: new StandIn('variant'),
      limit: new StandIn('limit'),
      offset: new StandIn('offset'),
    };
    const values = { org: 'o-1', id: 'v-1', variant: 'x-1', limit: 20, offset: 40 };
    const withStandIns = everyConstruct(compiler, standIns).compile();
    const withValues = everyConstruct(compiler, values).compile();
    expect(withStandIns.sql).toBe(withValues.sql);
    const names = withStandIns.parameters.map((p) => {
      expect(p).toBeInstanceOf(StandIn);
      return (p as StandIn).name;
    });
    expect(names.map((n) => values[n as keyof typeof values])).toEqual(withValues.parameters);
    expect(withStandIns.parameters[0]).toBe(standIns.variant);
  });
});

describe("Kysely's PostgreSQL driver calls client.query(text, values) (preparing-client.ts)", () => {
  it('passes exactly the statement text and its parameter array, which PreparingClient names', async () => {
    const calls: unknown[][] = [];
    const client = {
      query: (...args: unknown[]) => {
        calls.push(args);
        return Promise.resolve({ command: 'SELECT', rowCount: 1, rows: [{ n: 2 }] });
      },
      release: () => undefined,
    };
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: { connect: () => Promise.resolve(client), end: () => Promise.resolve() } as never,
      }),
    });
    await sql`select ${1}::int + 1 as n`.execute(db);
    await db.selectFrom('venues').select('id').where('id', '=', 'v').execute();
    await db.destroy();
    expect(calls).toEqual([
      ['select $1::int + 1 as n', [1]],
      ['select "id" from "venues" where "id" = $1', ['v']],
    ]);
  });
});
