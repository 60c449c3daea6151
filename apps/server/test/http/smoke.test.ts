import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { setup } from '../support/test-app.js';
import { makeApiKey, makeOrganisation, makeVenue } from '../support/factories.js';

describe('smoke', () => {
  const ctx = setup();

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

describe('smoke: availability and booking', () => {
  const ctx = setup();

  it('lists slots and books one of them', async () => {
    const { makeBookableVenue, bookingBody } = await import('../support/booking-fixture.js');
    const f = await makeBookableVenue(ctx.db, ctx.vault);
    const auth = { Authorization: `Bearer ${f.key}` };
    const day = await request(ctx.app)
      .get(`/v1/venues/${f.venue.slug}/availability/variants/${f.variant.id}?date=2026-11-25`)
      .set(auth);
    expect(day.status).toBe(200);
    expect(day.body.data.slots[0]).toEqual({
      time: '08:00',
      local_time: '09:00',
      start_at: '2026-11-25T08:00:00Z',
      end_at: '2026-11-25T09:00:00Z',
      out_of_hours: false,
      available_capacity: 1,
    });
    expect(day.body.data.slots).toHaveLength(17);
    const created = await request(ctx.app)
      .post(`/v1/venues/${f.venue.id}/bookings`)
      .set(auth)
      .send(bookingBody(f.variant.id, { start_at: '2026-11-25T08:00:00Z', external_id: 'x1' }));
    expect(created.status).toBe(201);
    const again = await request(ctx.app)
      .post(`/v1/venues/${f.venue.id}/bookings`)
      .set(auth)
      .send(bookingBody(f.variant.id, { start_at: '2026-11-25T08:00:00Z', external_id: 'x1' }));
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const taken = await request(ctx.app)
      .post(`/v1/venues/${f.venue.id}/bookings`)
      .set(auth)
      .send(bookingBody(f.variant.id, { start_at: '2026-11-25T08:00:00Z' }));
    expect(taken.status).toBe(409);
    const after = await request(ctx.app)
      .get(`/v1/venues/${f.venue.slug}/availability/variants/${f.variant.id}?date=2026-11-25`)
      .set(auth);
    expect(after.body.data.slots).toHaveLength(15); // 09:00 and 09:30 both overlap the booked hour
    const cancelled = await request(ctx.app).post(`/v1/bookings/ext:x1/cancel`).set(auth).send({ reason: 'test' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.cancellation.fee).toEqual({ amount: 0, currency: 'EUR' });
  });
});
