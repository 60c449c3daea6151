import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient } from '@spa/sdk';
import { makeApiKey, makeBooking, makeCustomer, makeTreatment, makeVenue } from '../support/factories.js';
import { makeBookableVenue } from '../support/booking-fixture.js';
import { createTestContext, type TestContext } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';

describe('GET /v1/bookings/{booking_id} (docs/api.md, 6.8)', () => {
  let ctx: TestContext;
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  beforeAll(async () => {
    ctx = await createTestContext();
    f = await makeBookableVenue(ctx.db, ctx.vault);
  });
  afterAll(() => ctx.close());

  const get = (ref: string, key = f.key) => ctx.v1.booking(ref, key);
  /** The `error` of an error answer (undefined for a booking). */
  const errorOf = (res: Awaited<ReturnType<typeof get>>) => ('error' in res.body ? res.body.error : undefined);

  it('returns a booking of every status in the full shape, the same as the customer history lists it', async () => {
    const customer = await makeCustomer(ctx.db, f.organisation.id);
    const refs = { venueId: f.venue.id, treatmentId: f.treatment.id, variantId: f.variant.id, customerId: customer.id };
    for (const status of ['pending', 'awaiting_therapist', 'confirmed', 'completed', 'no_show', 'cancelled'] as const) {
      const booking = await makeBooking(ctx.db, refs, {
        status,
        external_id: `get-${status}`,
        ...(status === 'cancelled'
          ? {
              cancelled_at: '2026-09-30T09:00:00Z',
              cancelled_by: 'customer',
              cancellation_reason: 'Ill',
              cancellation_fee_minor: 4500,
              cancellation_policy_text: 'Cancelled 24 hours before the start by the customer: 50% fee.',
            }
          : {}),
      });
      const history = await ctx.partner(f.key).customers.bookings({
        params: { venue_id: f.venue.id, customer_id: customer.id },
        query: { page_size: '100' },
      });
      expectStatus(history, 200);
      const listed = history.body.data.find((b) => b.id === booking.id)!;
      for (const ref of [booking.id, booking.id.toUpperCase(), `ext:get-${status}`]) {
        const res = await get(ref);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ data: listed });
      }
      expect(listed.status).toBe(status);
    }
  });

  it('answers 404 Booking not found for an unknown UUID, an unknown ext: and a malformed id', async () => {
    for (const ref of ['00000000-0000-4000-8000-000000000000', 'ext:nope', 'not-a-booking'])
      expect((await get(ref)).body).toEqual({ error: 'Booking not found', request_id: expect.any(String) });
    expect((await get('ext:nope')).status).toBe(404);
  });

  it('answers 403 Forbidden for another organisation’s booking and outside a venue-restricted key; ext: does not see them', async () => {
    const other = await makeBookableVenue(ctx.db, ctx.vault);
    const customer = await makeCustomer(ctx.db, other.organisation.id);
    const theirs = await makeBooking(
      ctx.db,
      {
        venueId: other.venue.id,
        treatmentId: other.treatment.id,
        variantId: other.variant.id,
        customerId: customer.id,
      },
      { external_id: 'theirs' },
    );
    expect([(await get(theirs.id)).status, errorOf(await get(theirs.id))]).toEqual([403, 'Forbidden']);
    expect((await get('ext:theirs')).status).toBe(404);

    const second = await makeVenue(ctx.db, f.organisation.id);
    const treatment = await makeTreatment(ctx.db, second.id);
    const mine = await makeCustomer(ctx.db, f.organisation.id);
    const elsewhere = await makeBooking(
      ctx.db,
      { venueId: second.id, treatmentId: treatment.id, variantId: treatment.variant.id, customerId: mine.id },
      { external_id: 'elsewhere' },
    );
    const { key: restricted } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { venueId: f.venue.id });
    expect(errorOf(await get(elsewhere.id, restricted))).toBe('Forbidden');
    expect((await get('ext:elsewhere', restricted)).status).toBe(404);
    expect((await get(elsewhere.id)).status).toBe(200);
  });

  it('answers 409 AMBIGUOUS_EXTERNAL_ID when ext: matches bookings at several venues the key can see', async () => {
    const second = await makeVenue(ctx.db, f.organisation.id);
    const treatment = await makeTreatment(ctx.db, second.id);
    const customer = await makeCustomer(ctx.db, f.organisation.id);
    await makeBooking(
      ctx.db,
      { venueId: f.venue.id, treatmentId: f.treatment.id, variantId: f.variant.id, customerId: customer.id },
      { external_id: 'twice' },
    );
    await makeBooking(
      ctx.db,
      { venueId: second.id, treatmentId: treatment.id, variantId: treatment.variant.id, customerId: customer.id },
      { external_id: 'twice' },
    );
    const res = await get('ext:twice');
    expect([res.status, res.body]).toEqual([
      409,
      {
        error: 'AMBIGUOUS_EXTERNAL_ID',
        message: 'This external id matches bookings at several venues; use the booking id',
        request_id: expect.any(String),
      },
    ]);
  });

  it('needs bookings:read', async () => {
    const { key } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { scopes: ['venues:read'] });
    const res = await get('ext:x', key);
    expectStatus(res, 403);
    expect([res.body.error, 'missing' in res.body ? res.body.missing : undefined]).toEqual([
      'Insufficient scope',
      ['bookings:read'],
    ]);
  });

  it('is getBooking in the SDK, typed by the contract', async () => {
    const server = ctx.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as { port: number };
      const client = createPartnerClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: f.key });
      const found = await client.getBooking('ext:get-confirmed');
      expect(found.ok && found.data.status).toBe('confirmed');
      const missing = await client.getBooking('ext:nope');
      expect(!missing.ok && [missing.error.status, missing.error.code]).toEqual([404, 'Booking not found']);
    } finally {
      server.close();
    }
  });
});
