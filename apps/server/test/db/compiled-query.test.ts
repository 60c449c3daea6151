import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledQuery } from '../../src/db/compiled-query.js';
import type { DatabaseHandle } from '../../src/db/connect.js';
import { makeOrganisation, makeVenue } from '../support/factories.js';
import { openTestDatabase } from '../support/test-db.js';

const venuesOf = compiledQuery((db, p: { organisationId: string; limit: number }) =>
  db.selectFrom('venues').select('slug').where('organisation_id', '=', p.organisationId).orderBy('slug').limit(p.limit),
);

describe('a query compiled once', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase();
  });
  afterAll(() => handle.close());

  it("runs with each call's parameters in place of the stand-ins it was compiled with", async () => {
    const [a, b] = [await makeOrganisation(handle.db), await makeOrganisation(handle.db)];
    for (const slug of ['a-1', 'a-2', 'a-3']) await makeVenue(handle.db, a.id, { slug });
    await makeVenue(handle.db, b.id, { slug: 'b-1' });
    expect(await venuesOf(handle.db, { organisationId: a.id, limit: 2 })).toEqual([{ slug: 'a-1' }, { slug: 'a-2' }]);
    expect(await venuesOf(handle.db, { organisationId: b.id, limit: 5 })).toEqual([{ slug: 'b-1' }]);
    expect(await venuesOf(handle.db, { organisationId: a.id, limit: 5 })).toHaveLength(3);
  });

  it('runs inside the transaction it is given', async () => {
    const organisation = await makeOrganisation(handle.db);
    const seen = await handle.db.transaction().execute(async (trx) => {
      await makeVenue(trx, organisation.id, { slug: 'uncommitted' });
      return venuesOf(trx, { organisationId: organisation.id, limit: 5 });
    });
    expect(seen).toEqual([{ slug: 'uncommitted' }]);
  });

  it('refuses a parameter that does not reach the query as a value', async () => {
    const broken = compiledQuery((db, p: { organisationId: string; unused: string }) => {
      void p.unused;
      return db.selectFrom('venues').select('slug').where('organisation_id', '=', p.organisationId);
    });
    await expect(broken(handle.db, { organisationId: 'x', unused: 'y' })).rejects.toThrow(
      'compiledQuery: parameter unused does not reach the query as a value',
    );
  });
});
