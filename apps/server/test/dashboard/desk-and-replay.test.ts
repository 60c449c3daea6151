import { beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { makeRoom } from '../support/factories.js';
import { setup } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';
import { dashboardOf, makePerson, type Session } from './dashboard-support.js';

describe('the venue desk in one answer, and replay to one endpoint', () => {
  const ctx = setup(); // now: 2026-11-22T08:00:00Z
  const dash = () => dashboardOf(ctx.app);
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  let desk: Session;
  let slot = 0;
  let adminEmail: string;

  beforeAll(async () => {
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 4, therapists: 2 });
    for (let i = 0; i < 12; i++) await makeRoom(ctx.db, f.venue.id);
    const a = await makePerson(ctx.db, f.organisation.id, { role: 'admin' });
    const d = await makePerson(ctx.db, f.organisation.id, { role: 'desk', venueIds: [f.venue.id] });
    adminEmail = a.email;
    desk = await dash().signIn(d.email);
  });

  const book = async (day = 25) => {
    const start = `2026-11-${day}T${String(8 + (slot++ % 8)).padStart(2, '0')}:00:00Z`;
    const res = await ctx.v1.book(f.venue.id, bookingBody(f.variant.id, { start_at: start }), f.key);
    expectStatus(res, 201);
    return res.body.data;
  };

  it('lists every waiting booking with the therapists it was offered to, however long the queue', async () => {
    const booked = [];
    for (let i = 0; i < 14; i++) booked.push(await book(25 + Math.floor(i / 8)));
    const res = await ctx.dashboard(desk).bookings.desk();
    expectStatus(res, 200);
    const { waiting, to_close, agenda } = res.body.data;
    expect(waiting.more).toBe(0);
    expect(waiting.bookings.map((b) => b.id).sort()).toEqual(booked.map((b) => b.id).sort());
    for (const b of waiting.bookings) expect(b.eligible_therapists).toHaveLength(2);
    // Started and confirmed only: a booking of the 25th is not offered for closing on the 22nd.
    expect(to_close.bookings).toEqual([]);
    // The venue's today and tomorrow (Paris), each a day of the agenda.
    expect(agenda.map((d) => [d.venue_id, d.date])).toEqual([
      [f.venue.id, '2026-11-22'],
      [f.venue.id, '2026-11-23'],
    ]);
  });

  it('lists upcoming bookings first, then those that started, the latest first', async () => {
    ctx.clock.set('2026-11-25T10:30:00Z');
    try {
      const later = await dash().signIn(adminEmail);
      const res = await ctx.dashboard(later).bookings.list({ query: { page_size: '100' } });
      expectStatus(res, 200);
      const starts = res.body.data.map((b) => b.start_at);
      const upcoming = starts.filter((s) => s >= '2026-11-25T10:30:00Z');
      const started = starts.filter((s) => s < '2026-11-25T10:30:00Z');
      expect(starts).toEqual([...upcoming, ...started]);
      expect(upcoming).toEqual([...upcoming].sort());
      expect(started).toEqual([...started].sort().reverse());
    } finally {
      ctx.clock.set('2026-11-22T08:00:00Z');
    }
  });

  it('replays a delivery to the chosen endpoint only, numbering its attempts on and marking the first manual', async () => {
    const b = await book(27);
    const event = await ctx.db
      .selectFrom('webhook_events')
      .select('id')
      .where('booking_id', '=', b.id)
      .executeTakeFirstOrThrow();
    const endpoints = [];
    for (const url of ['https://one.example.com/hooks', 'https://two.example.com/hooks']) {
      const id = crypto.randomUUID();
      await ctx.db
        .insertInto('webhook_endpoints')
        .values({
          id,
          url,
          organisation_id: f.organisation.id,
          venue_id: null,
          secret_encrypted: 'x',
          created_at: '2026-11-20T08:00:00Z',
        })
        .execute();
      const delivery = await ctx.db
        .insertInto('webhook_deliveries')
        .values({
          event_id: event.id,
          endpoint_id: id,
          next_attempt_at: '2026-11-22T08:00:00Z',
          status: 'failed' as never,
          attempts: 8,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await ctx.db
        .insertInto('webhook_attempts')
        .values({
          delivery_id: delivery.id,
          attempt: 8,
          started_at: '2026-11-22T07:00:00Z',
          duration_ms: 5,
          status_code: 500,
        })
        .execute();
      endpoints.push({ id, delivery: delivery.id });
    }
    const session = await dash().signIn(adminEmail);
    const replayed = await ctx.dashboard(session).webhookDeliveries.replay({
      params: { event_id: event.id },
      body: { endpoint_id: endpoints[0]!.id },
    });
    expectStatus(replayed, 200);
    expect(replayed.body.data.deliveries).toBe(1);
    const rows = await ctx.db
      .selectFrom('webhook_deliveries')
      .select(['endpoint_id', 'status', 'attempts', 'attempt_base', 'manual_next'])
      .where('event_id', '=', event.id)
      .orderBy('endpoint_id')
      .execute();
    const byEndpoint = new Map(rows.map((r) => [r.endpoint_id, r]));
    expect(byEndpoint.get(endpoints[0]!.id)).toMatchObject({
      status: 'pending',
      attempts: 0,
      attempt_base: 8,
      manual_next: true,
    });
    // The other endpoint, healthy or not, gets no duplicate.
    expect(byEndpoint.get(endpoints[1]!.id)).toMatchObject({ status: 'failed', attempts: 8 });
  });
});
