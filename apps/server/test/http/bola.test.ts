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
import { errorOf, expectStatus } from '../support/typed-api.js';

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

  /** The venue's read calls through the typed client, each named by the path it requests. */
  const calls = (v: { id: string; slug: string; customerId: string }, ref: string) =>
    [
      [`/v1/venues/${ref}`, (key: string) => ctx.partner(key).venues.get({ params: { venue_id: ref } })],
      [
        `/v1/venues/${ref}/treatments`,
        (key: string) => ctx.partner(key).treatments.list({ params: { venue_id: ref } }),
      ],
      [`/v1/venues/${ref}/customers`, (key: string) => ctx.partner(key).customers.list({ params: { venue_id: ref } })],
      [
        `/v1/venues/${ref}/customers/${v.customerId}/bookings`,
        (key: string) => ctx.partner(key).customers.bookings({ params: { venue_id: ref, customer_id: v.customerId } }),
      ],
      [
        `/v1/venues/${ref}/availability/variants/${v.customerId}?date=2026-12-01`,
        (key: string) => ctx.v1.availability(ref, v.customerId, { date: '2026-12-01' }, key),
      ],
    ] as const;

  it('refuses organisation A every venue of B: 403 Forbidden by UUID, 404 by slug (slugs resolve inside the caller organisation)', async () => {
    for (const key of [keys.orgA, keys.restrictedX]) {
      for (const [path, call] of calls(venues.B!, venues.B!.id))
        expect(errorOf(await call(key)), path).toBe('Forbidden');
      for (const [path, call] of calls(venues.B!, venues.B!.slug))
        expect(errorOf(await call(key)), path).toBe('Venue not found');
    }
  });

  it('refuses a key restricted to venue X everything of venue Y, by UUID and by slug', async () => {
    for (const ref of [venues.Y!.id, venues.Y!.slug]) {
      for (const [path, call] of calls(venues.Y!, ref)) {
        const res = await call(keys.restrictedX);
        expect([res.status, errorOf(res)], path).toEqual([403, 'Forbidden']);
      }
    }
  });

  it('lets the restricted key read its own venue, and lists only that venue', async () => {
    for (const [path, call] of calls(venues.X!, venues.X!.slug).slice(0, 4))
      expect((await call(keys.restrictedX)).status, path).toBe(200);
    const list = await ctx.partner(keys.restrictedX).venues.list();
    expectStatus(list, 200);
    expect(list.body.data.map((v) => v.id)).toEqual([venues.X!.id]);
    const all = await ctx.partner(keys.orgA).venues.list();
    expectStatus(all, 200);
    expect(all.body.data.map((v) => v.id).sort()).toEqual([venues.X!.id, venues.Y!.id].sort());
  });

  it('never shows a customer of B through a venue of A', async () => {
    const res = await ctx
      .partner(keys.orgA)
      .customers.bookings({ params: { venue_id: venues.X!.id, customer_id: venues.B!.customerId } });
    expect([res.status, errorOf(res)]).toEqual([404, 'Customer not found in this venue']);
  });
});
