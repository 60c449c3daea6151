import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey, makeBooking, makeCustomer, makeOrganisation, makeTreatment, makeVenue } from '../support/factories.js';
import { createTestContext, type TestContext } from '../support/test-app.js';

describe('POST /v1/bookings/{booking_id}/cancel (spec 4.8)', () => {
  let ctx: TestContext;
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  beforeAll(async () => {
    ctx = await createTestContext({ now: '2026-11-22T08:00:00Z' });
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 1, therapists: 1 });
  });
  afterAll(() => ctx.close());

  const book = async (start: string, extra: object = {}) => {
    ctx.clock.set('2026-11-22T08:00:00Z');
    const res = await request(ctx.app).post(`/v1/venues/${f.venue.id}/bookings`).set('Authorization', `Bearer ${f.key}`).send(bookingBody(f.variant.id, { start_at: start, ...extra }));
    expect(res.status).toBe(201);
    return res.body.data as { id: string; start_at: string };
  };
  const cancel = (ref: string, body: object = { reason: 'Guest changed plans' }, key = f.key) =>
    request(ctx.app).post(`/v1/bookings/${ref}/cancel`).set('Authorization', `Bearer ${key}`).send(body);

  it('cancels by UUID with the cancellation block, and releases the slot at once', async () => {
    const booking = await book('2026-11-30T09:00:00Z');
    ctx.clock.set('2026-11-25T10:00:00Z');
    const res = await cancel(booking.id, { reason: 'Guest changed plans' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: booking.id, status: 'cancelled', start_at: '2026-11-30T09:00:00Z', updated_at: '2026-11-25T10:00:00Z' });
    expect(res.body.data.cancellation).toEqual({
      fee: { amount: 0, currency: 'EUR' },
      policy: 'Cancelled by the partner 119 hours before the start: the tier "24 hours or more before" applies (0% fee), EUR 0.00.',
      cancelled_at: '2026-11-25T10:00:00Z',
      cancelled_by: 'partner',
      reason: 'Guest changed plans',
    });
    expect(await ctx.db.selectFrom('room_reservations').select('room_id').where('booking_id', '=', booking.id).execute()).toEqual([]);
    expect(await ctx.db.selectFrom('therapist_reservations').select('therapist_id').where('booking_id', '=', booking.id).execute()).toEqual([]);
    const slots = await request(ctx.app).get(`/v1/venues/${f.venue.id}/availability/variants/${f.variant.id}?date=2026-11-30`).set('Authorization', `Bearer ${f.key}`);
    expect(slots.body.data.slots.map((s: { start_at: string }) => s.start_at)).toContain('2026-11-30T09:00:00Z');
    await book('2026-11-30T09:00:00Z');
  });

  it('cancels by ext:{external_id}', async () => {
    const booking = await book('2026-12-01T09:00:00Z', { external_id: 'pms-77' });
    ctx.clock.set('2026-11-22T09:00:00Z');
    const res = await cancel('ext:pms-77');
    expect([res.status, res.body.data.id]).toEqual([200, booking.id]);
  });

  it('applies the partner tiers at their boundaries, rounding the fee half-up to the cent', async () => {
    const cases: [string, number, number][] = [
      ['2026-12-01T16:00:00Z', 0, 0], // exactly 24 h before: first tier
      ['2026-12-01T16:00:01Z', 50, 45], // just under 24 h
      ['2026-12-02T14:00:00Z', 50, 45], // exactly 2 h before
      ['2026-12-02T14:00:01Z', 100, 90], // just under 2 h
      ['2026-12-02T17:00:00Z', 100, 90], // after the start: last tier
    ];
    for (const [now, percent, amount] of cases) {
      const booking = await book('2026-12-02T16:00:00Z');
      ctx.clock.set(now);
      const res = await cancel(booking.id);
      expect([res.status, res.body.data.cancellation.fee.amount, res.body.data.cancellation.policy.includes(`(${percent}% fee)`)], now).toEqual([200, amount, true]);
    }
    const odd = await book('2026-12-03T09:00:00Z', { price_paid: { amount: 99.99, currency: 'EUR' } });
    ctx.clock.set('2026-12-03T06:00:00Z'); // 3 h before: 50%
    expect((await cancel(odd.id)).body.data.cancellation.fee).toEqual({ amount: 50, currency: 'EUR' }); // 49.995 -> 50.00
  });

  it('applies the customer tiers when cancelled_by is customer', async () => {
    const booking = await book('2026-12-04T09:00:00Z');
    ctx.clock.set('2026-12-02T21:00:00Z'); // 36 h before: free for the partner, 100% for the customer (48 h tier)
    const res = await cancel(booking.id, { reason: 'ill', cancelled_by: 'customer' });
    expect(res.body.data.cancellation).toMatchObject({ fee: { amount: 90, currency: 'EUR' }, cancelled_by: 'customer' });
  });

  it('answers 404 BOOKING_NOT_FOUND for an unknown UUID, an unknown ext: and a garbage id', async () => {
    for (const ref of ['00000000-0000-4000-8000-000000000000', 'ext:nope', 'bkg_123']) {
      const res = await cancel(ref);
      expect([res.status, res.body.error, res.body.message], ref).toEqual([404, 'BOOKING_NOT_FOUND', 'Booking not found']);
    }
  });

  it('answers 422 BOOKING_ALREADY_CANCELLED for cancelled, completed and no_show bookings', async () => {
    const customer = await makeCustomer(ctx.db, f.organisation.id);
    for (const status of ['cancelled', 'completed', 'no_show'] as const) {
      const row = await makeBooking(ctx.db, { venueId: f.venue.id, treatmentId: f.treatment.id, variantId: f.variant.id, customerId: customer.id }, { status });
      const res = await cancel(row.id);
      expect([res.status, res.body.error], status).toEqual([422, 'BOOKING_ALREADY_CANCELLED']);
    }
  });

  it('answers 403 FORBIDDEN for a booking of another organisation or outside a venue-restricted key', async () => {
    const other = await makeOrganisation(ctx.db);
    const { key: foreignKey } = await makeApiKey(ctx.db, ctx.vault, other.id);
    const booking = await book('2026-12-05T09:00:00Z', { external_id: 'mine' });
    const foreign = await cancel(booking.id, undefined, foreignKey);
    expect([foreign.status, foreign.body.error]).toEqual([403, 'FORBIDDEN']);
    expect((await cancel('ext:mine', undefined, foreignKey)).body.error).toBe('BOOKING_NOT_FOUND'); // not visible to that key
    const sibling = await makeVenue(ctx.db, f.organisation.id);
    const { key: restricted } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { venueId: sibling.id });
    expect((await cancel(booking.id, undefined, restricted)).body.error).toBe('FORBIDDEN');
  });

  it('answers 409 AMBIGUOUS_EXTERNAL_ID when the external id exists at two visible venues', async () => {
    const sibling = await makeVenue(ctx.db, f.organisation.id);
    const treatment = await makeTreatment(ctx.db, sibling.id);
    const customer = await makeCustomer(ctx.db, f.organisation.id);
    for (const [venueId, t] of [[f.venue.id, f.treatment], [sibling.id, treatment]] as const) {
      await makeBooking(ctx.db, { venueId, treatmentId: t.id, variantId: t.variant.id, customerId: customer.id }, { status: 'pending', external_id: 'twice' });
    }
    const res = await cancel('ext:twice');
    expect([res.status, res.body.error]).toEqual([409, 'AMBIGUOUS_EXTERNAL_ID']);
  });

  it('answers 400 without a reason', async () => {
    const res = await cancel('ext:whatever', {});
    expect([res.status, res.body.error]).toEqual([400, 'reason is required']);
  });
});
