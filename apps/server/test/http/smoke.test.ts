import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { setup } from '../support/test-app.js';
import { makeApiKey, makeOrganisation, makeVenue } from '../support/factories.js';
import { daySlots, expectStatus } from '../support/typed-api.js';

describe('smoke', () => {
  const ctx = setup();

  it('lists the venues of the key organisation', async () => {
    const org = await makeOrganisation(ctx.db);
    const venue = await makeVenue(ctx.db, org.id);
    const { key } = await makeApiKey(ctx.db, ctx.vault, org.id);
    const res = await ctx.partner(key).venues.list();
    expectStatus(res, 200);
    expect(res.body.data.map((v) => v.id)).toEqual([venue.id]);
    // Raw: the key in X-Api-Key, a header the typed client never sends (it authenticates with Bearer).
    const detail = await request(ctx.app).get(`/v1/venues/${venue.slug}`).set('X-Api-Key', key);
    expect(detail.status).toBe(200);
    expect(detail.body.data.cancellation_policy.partner).toHaveLength(3);
  });
});

describe('smoke: availability and booking', () => {
  const ctx = setup();

  it('lists slots and books one of them', async () => {
    const { makeBookableVenue, bookingBody } = await import('../support/booking-fixture.js');
    const f = await makeBookableVenue(ctx.db, ctx.vault);
    const day = await ctx.v1.availability(f.venue.slug, f.variant.id, { date: '2026-11-25' }, f.key);
    expect(daySlots(day)[0]).toEqual({
      time: '08:00',
      local_time: '09:00',
      start_at: '2026-11-25T08:00:00Z',
      end_at: '2026-11-25T09:00:00Z',
      out_of_hours: false,
      available_capacity: 1,
    });
    expect(daySlots(day)).toHaveLength(17);
    const created = await ctx.v1.book(
      f.venue.id,
      bookingBody(f.variant.id, { start_at: '2026-11-25T08:00:00Z', external_id: 'x1' }),
      f.key,
    );
    expect(created.status).toBe(201);
    const again = await ctx.v1.book(
      f.venue.id,
      bookingBody(f.variant.id, { start_at: '2026-11-25T08:00:00Z', external_id: 'x1' }),
      f.key,
    );
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const taken = await ctx.v1.book(f.venue.id, bookingBody(f.variant.id, { start_at: '2026-11-25T08:00:00Z' }), f.key);
    expect(taken.status).toBe(409);
    const after = await ctx.v1.availability(f.venue.slug, f.variant.id, { date: '2026-11-25' }, f.key);
    expect(daySlots(after)).toHaveLength(15); // 09:00 and 09:30 both overlap the booked hour
    const cancelled = await ctx.v1.cancel('ext:x1', f.key, { reason: 'test' });
    expectStatus(cancelled, 200);
    expect(cancelled.body.data.cancellation?.fee).toEqual({ amount: 0, currency: 'EUR' });
  });
});
