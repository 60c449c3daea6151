import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  makeApiKey,
  makeBooking,
  makeCustomer,
  makeOrganisation,
  makeTreatment,
  makeVenue,
} from '../support/factories.js';
import { setup } from '../support/test-app.js';

/** Broken object-level authorisation, checked as a matrix: no key ever reads outside its organisation or venue. */
describe('BOLA matrix', () => {
  const ctx = setup();
  const venues: Record<string, { id: string; slug: string; customerId: string }> = {};
  let keys: Record<'orgA' | 'restrictedX', string>;

  beforeAll(async () => {
    const a = await makeOrganisation(ctx.db);
    const b = await makeOrganisation(ctx.db);
    for (const [name, org] of [
      ['X', a],
      ['Y', a],
      ['B', b],
    ] as const) {
      const venue = await makeVenue(ctx.db, org.id, { slug: `bola-${name.toLowerCase()}` });
      const treatment = await makeTreatment(ctx.db, venue.id);
      const customer = await makeCustomer(ctx.db, org.id);
      await makeBooking(ctx.db, {
        venueId: venue.id,
        treatmentId: treatment.id,
        variantId: treatment.variant.id,
        customerId: customer.id,
      });
      venues[name] = { id: venue.id, slug: venue.slug, customerId: customer.id };
    }
    keys = {
      orgA: (await makeApiKey(ctx.db, ctx.vault, a.id)).key,
      restrictedX: (await makeApiKey(ctx.db, ctx.vault, a.id, { venueId: venues.X!.id })).key,
    };
  });

  const paths = (v: { id: string; slug: string; customerId: string }, ref: string) => [
    `/v1/venues/${ref}`,
    `/v1/venues/${ref}/treatments`,
    `/v1/venues/${ref}/customers`,
    `/v1/venues/${ref}/customers/${v.customerId}/bookings`,
    `/v1/venues/${ref}/availability/variants/${v.customerId}?date=2026-12-01`,
  ];
  const get = (key: string, path: string) => request(ctx.app).get(path).set('Authorization', `Bearer ${key}`);

  it('refuses organisation A every venue of B: 403 Forbidden by UUID, 404 by slug (slugs resolve inside the caller organisation)', async () => {
    for (const key of [keys.orgA, keys.restrictedX]) {
      for (const path of paths(venues.B!, venues.B!.id))
        expect((await get(key, path)).body.error, path).toBe('Forbidden');
      for (const path of paths(venues.B!, venues.B!.slug))
        expect((await get(key, path)).body.error, path).toBe('Venue not found');
    }
  });

  it('refuses a key restricted to venue X everything of venue Y, by UUID and by slug', async () => {
    for (const ref of [venues.Y!.id, venues.Y!.slug]) {
      for (const path of paths(venues.Y!, ref)) {
        const res = await get(keys.restrictedX, path);
        expect([res.status, res.body.error], path).toEqual([403, 'Forbidden']);
      }
    }
  });

  it('lets the restricted key read its own venue, and lists only that venue', async () => {
    for (const path of paths(venues.X!, venues.X!.slug).slice(0, 4))
      expect((await get(keys.restrictedX, path)).status, path).toBe(200);
    const list = await get(keys.restrictedX, '/v1/venues');
    expect(list.body.data.map((v: { id: string }) => v.id)).toEqual([venues.X!.id]);
    const all = await get(keys.orgA, '/v1/venues');
    expect(all.body.data.map((v: { id: string }) => v.id).sort()).toEqual([venues.X!.id, venues.Y!.id].sort());
  });

  it('never shows a customer of B through a venue of A', async () => {
    const res = await get(keys.orgA, `/v1/venues/${venues.X!.id}/customers/${venues.B!.customerId}/bookings`);
    expect([res.status, res.body.error]).toEqual([404, 'Customer not found in this venue']);
  });
});
