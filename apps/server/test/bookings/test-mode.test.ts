import { beforeAll, describe, expect, it } from 'vitest';
import { error } from '../support/api.js';
import { bookingBody, type BookableVenue, makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey } from '../support/factories.js';
import { setup } from '../support/test-app.js';
import { dashboardOf, makePerson, type Session } from '../dashboard/dashboard-support.js';
import { addEndpoint } from '../../src/webhooks/endpoints.service.js';

/**
 * Test mode: a test key's bookings, customers, events and endpoints are another world than the live key's of the same
 * organisation, over the same catalogue. Every partner read and every dashboard read of one mode is asked for the
 * other mode's records, and none shows through.
 */
describe('test mode keeps test and live data apart', () => {
  const ctx = setup(); // now: 2026-11-22T08:00:00Z
  const dash = () => dashboardOf(ctx.app);
  let f: BookableVenue;
  let testKey: string;
  let live: { id: string; customer_id: string };
  let test: { id: string; customer_id: string };
  let admin: Session;
  let desk: Session;
  const START = '2026-11-25T09:00:00Z';

  beforeAll(async () => {
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 1, therapists: 1 });
    testKey = (await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { livemode: false })).key;
    for (const [url, livemode] of [
      ['http://127.0.0.1:9/live', true],
      ['http://127.0.0.1:9/test', false],
    ] as const)
      await addEndpoint(ctx.db, ctx.vault, { orgSlug: f.organisation.slug, url, allowPrivateNetworks: true, livemode });
    // The one room and the one therapist at the same hour, once per mode, same guest and same external id.
    const body = bookingBody(f.variant.id, { start_at: START, external_id: 'pms-1' });
    const liveRes = await ctx.api.book(f.venue.id, body, f.key);
    const testRes = await ctx.api.book(f.venue.id, body, testKey);
    expect([liveRes.status, testRes.status]).toEqual([201, 201]);
    live = liveRes.body.data;
    test = testRes.body.data;
    expect([liveRes.body.data.livemode, testRes.body.data.livemode]).toEqual([true, false]);
    expect(test.customer_id).not.toBe(live.customer_id);
    const a = await makePerson(ctx.db, f.organisation.id, { role: 'admin' });
    const d = await makePerson(ctx.db, f.organisation.id, { role: 'desk', venueIds: [f.venue.id] });
    [admin, desk] = [await dash().signIn(a.email), await dash().signIn(d.email)];
  });

  const modes = () =>
    [
      { mode: 'live', key: f.key, own: live, other: test },
      { mode: 'test', key: testKey, own: test, other: live },
    ] as const;

  it('answers every partner read of one booking or customer of the other mode as absent', async () => {
    for (const { key, own, other } of modes()) {
      const cases: [string, () => Promise<{ status: number; body: unknown }>, number, unknown][] = [
        ['get by id', () => ctx.api.get(`/v1/bookings/${other.id}`, key), 404, error('Booking not found')],
        ['cancel by id', () => ctx.api.cancel(other.id, key), 404, { error: 'BOOKING_NOT_FOUND' }],
        [
          'customer history',
          () => ctx.api.get(`/v1/venues/${f.venue.id}/customers/${other.customer_id}/bookings`, key),
          404,
          error('Customer not found in this venue'),
        ],
      ];
      for (const [name, call, status, body] of cases) {
        const res = await call();
        expect([name, res.status], JSON.stringify(res.body)).toEqual([name, status]);
        expect(res.body).toMatchObject(body as object);
      }
      // The reads that list: only the key's own mode.
      const byExt = await ctx.api.get('/v1/bookings/ext:pms-1', key);
      expect(byExt.body.data.id).toBe(own.id);
      const customers = await ctx.api.get(`/v1/venues/${f.venue.id}/customers`, key);
      expect(customers.body.data.map((c: { id: string }) => c.id)).toEqual([own.customer_id]);
      const history = await ctx.api.get(`/v1/venues/${f.venue.id}/customers/${own.customer_id}/bookings`, key);
      expect(history.body.data.map((b: { id: string }) => b.id)).toEqual([own.id]);
    }
  });

  it("lists the bookings and the events feed of the key's mode only, and answers the other mode's event as absent", async () => {
    type Listed = { id: string; livemode: boolean; data: { booking: { id: string } } };
    const feeds = new Map<string, Listed[]>();
    for (const { mode, key, own, other } of modes()) {
      const bookings = await ctx.api.get('/v1/bookings?page_size=100', key);
      expect(bookings.status).toBe(200);
      expect(bookings.body.data.map((b: { id: string; livemode: boolean }) => [b.id, b.livemode])).toEqual([
        [own.id, mode === 'live'],
      ]);
      const byExternalId = await ctx.api.get('/v1/bookings?external_id=pms-1', key);
      expect(byExternalId.body.data.map((b: { id: string }) => b.id)).toEqual([own.id]);
      const byCustomer = await ctx.api.get(`/v1/bookings?customer_id=${other.customer_id}`, key);
      expect([byCustomer.status, byCustomer.body.data]).toEqual([200, []]);
      const events = await ctx.api.get('/v1/events?limit=100', key);
      expect(events.status).toBe(200);
      const listed = events.body.data as Listed[];
      expect(listed.map((e) => [e.data.booking.id, e.livemode])).toEqual([[own.id, mode === 'live']]);
      const ofOther = await ctx.api.get(`/v1/events?booking_id=${other.id}`, key);
      expect([ofOther.status, ofOther.body.data]).toEqual([200, []]);
      feeds.set(mode, listed);
    }
    for (const { mode, key } of modes()) {
      const otherEvent = feeds.get(mode === 'live' ? 'test' : 'live')![0]!;
      const get = await ctx.api.get(`/v1/events/${otherEvent.id}`, key);
      expect([get.status, get.body]).toEqual([404, error('Event not found')]);
      // The other mode's event is no cursor of this feed: never one this key could see.
      const after = await ctx.api.get(`/v1/events?after=${otherEvent.id}`, key);
      expect([after.status, after.body.error]).toEqual([410, 'EVENT_CURSOR_EXPIRED']);
      const own = feeds.get(mode)![0]!;
      expect((await ctx.api.get(`/v1/events/${own.id}`, key)).body.data.id).toBe(own.id);
    }
  });

  it("computes each mode's availability from its own bookings only: the slot each took is gone in its mode only", async () => {
    const query = 'date=2026-11-25&guest_count=1';
    const other = await makeBookableVenue(ctx.db, ctx.vault);
    const slotsOf = async (key: string) =>
      (await ctx.api.availability(f.venue.id, f.variant.id, query, key)).body.data.slots.map(
        (s: { start_at: string }) => s.start_at,
      );
    // Both modes booked 09:00 of the one room: it is missing in both, and nothing else is.
    expect(await slotsOf(f.key)).toEqual(await slotsOf(testKey));
    expect(await slotsOf(f.key)).not.toContain(START);
    // A live cancellation frees 09:00 for live keys only, while the test booking keeps its test hold.
    const freshVariant = other.variant.id;
    expect(freshVariant).toBeTruthy();
    const cancelled = await ctx.api.cancel(live.id, f.key);
    expect(cancelled.status).toBe(200);
    expect(await slotsOf(f.key)).toContain(START);
    expect(await slotsOf(testKey)).not.toContain(START);
    // The live slot is bookable again with the live key, and still taken for the test key.
    const again = await ctx.api.book(f.venue.id, bookingBody(f.variant.id, { start_at: START }), f.key);
    expect(again.status).toBe(201);
    live = again.body.data;
    const taken = await ctx.api.book(f.venue.id, bookingBody(f.variant.id, { start_at: START }), testKey);
    expect([taken.status, taken.body.error]).toEqual([409, 'slot_unavailable']);
  });

  it("writes each booking's events in its mode, and queues them to the endpoints of that mode only", async () => {
    const { rows } = await ctx.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .innerJoin('webhook_endpoints as ep', 'ep.id', 'd.endpoint_id')
      .select(['e.booking_id', 'e.livemode as event_livemode', 'ep.url', 'd.livemode', 'e.body'])
      .where('ep.organisation_id', '=', f.organisation.id)
      .execute()
      .then((rows) => ({ rows }));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const booking = row.booking_id === test.id ? 'test' : 'live';
      expect([booking, row.url]).toEqual([booking, `http://127.0.0.1:9/${booking}`]);
      expect(row.event_livemode).toBe(booking === 'live');
      expect(row.livemode).toBe(booking === 'live');
      expect(JSON.parse(row.body).livemode).toBe(booking === 'live');
    }
    expect(rows.some((r) => r.booking_id === test.id)).toBe(true);
  });

  it('shows an admin the test booking in test mode only, and never the desk', async () => {
    const ids = async (path: string, session: Session) => {
      const res = await dash().get(path, session);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.map((b: { id: string }) => b.id) as string[];
    };
    expect(await ids('/bookings', admin)).not.toContain(test.id);
    expect(await ids('/bookings', admin)).toContain(live.id);
    expect(await ids('/bookings?mode=test', admin)).toEqual([test.id]);
    expect(await ids('/bookings', desk)).not.toContain(test.id);
    const deskTest = await dash().get('/bookings?mode=test', desk);
    expect(deskTest.status).toBe(403);
    expect((await dash().get(`/bookings/${test.id}`, admin)).status).toBe(404);
    expect((await dash().get(`/bookings/${test.id}?mode=test`, admin)).status).toBe(200);
    expect((await dash().get(`/bookings/${live.id}?mode=test`, admin)).status).toBe(404);
    const deskView = await dash().get('/desk', desk);
    expect(JSON.stringify(deskView.body)).not.toContain(test.id);
    const endpoints = async (mode: string) =>
      (await dash().get(`/webhook-endpoints${mode}`, admin)).body.data.map((e: { url: string }) => e.url);
    expect(await endpoints('')).toEqual(['http://127.0.0.1:9/live']);
    expect(await endpoints('?mode=test')).toEqual(['http://127.0.0.1:9/test']);
    const deliveries = async (mode: string) =>
      (await dash().get(`/webhook-deliveries${mode}`, admin)).body.data.map(
        (d: { endpoint: { url: string } }) => d.endpoint.url,
      );
    expect(new Set(await deliveries(''))).toEqual(new Set(['http://127.0.0.1:9/live']));
    expect(new Set(await deliveries('?mode=test'))).toEqual(new Set(['http://127.0.0.1:9/test']));
    const key = await dash().get('/key?mode=test', admin);
    expect(key.status).toBe(200);
    expect(key.body.data).toBeNull();
  });
});
