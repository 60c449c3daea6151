import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/test-app.js';
import { makeApiKey, makeOrganisation, makeVenue } from '../support/factories.js';

describe('smoke', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('lists the venues of the key organisation', async () => {
    const org = await makeOrganisation(ctx.db);
    const venue = await makeVenue(ctx.db, org.id);
    const { key } = await makeApiKey(ctx.db, ctx.vault, org.id);
    const res = await request(ctx.app).get('/v1/venues').set('Authorization', `Bearer ${key}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((v: { id: string }) => v.id)).toEqual([venue.id]);
    const detail = await request(ctx.app).get(`/v1/venues/${venue.slug}`).set('X-Api-Key', key);
    expect(detail.status).toBe(200);
    expect(detail.body.data.cancellation_policy.partner).toHaveLength(3);
  });
});
