import { verifyWebhook, type WebhookEvent } from '@spa/sdk';
import { sql } from 'kysely';
import { expectStatus } from '../support/typed-api.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptBooking, finishBooking } from '../../src/bookings/therapist-workflow.js';
import { bookingBody } from '../support/booking-fixture.js';
import { startReceiver, type Receiver } from './receiver.js';
import { createWebhookContext, type WebhookContext } from './webhook-context.js';

/** The events the receiver got for one booking, verified by standardwebhooks and by the SDK, in arrival order. */
function eventsOf(receiver: Receiver, secret: string, bookingId: string): WebhookEvent[] {
  return receiver.received
    .map((r) => {
      const result = verifyWebhook(r.body, r.headers, secret);
      if (!result.ok) throw result.error;
      expect(result.id).toBe(r.id);
      return result.event;
    })
    .filter((e, i) => {
      // The same bytes pass the third-party verifier unchanged.
      expect(receiver.verified(secret)[i]).toEqual(JSON.parse(receiver.received[i]!.body));
      return e.data.booking.id === bookingId;
    });
}

describe('a booking’s life arrives at the receiver as signed events with the booking as the API shows it', () => {
  let ctx: WebhookContext;
  let receiver: Receiver;
  let f: Awaited<ReturnType<WebhookContext['venueWithEndpoint']>>;
  beforeAll(async () => {
    ctx = await createWebhookContext();
    receiver = await startReceiver();
    f = await ctx.venueWithEndpoint(receiver.url);
  });
  afterAll(async () => {
    await ctx.close();
    await receiver.close();
  });

  const offeredTo = async (bookingId: string) =>
    (
      await ctx.db
        .selectFrom('therapist_reservations')
        .select('therapist_id')
        .where('booking_id', '=', bookingId)
        .executeTakeFirstOrThrow()
    ).therapist_id;

  it('create, accept, cancel: booking.created, booking.confirmed, booking.cancelled, each with that moment’s booking', async () => {
    const created = await ctx.book(f, { start_at: '2026-11-25T09:00:00Z', external_id: 'life-1' });
    const atCreate = await ctx.read(f, created.id);
    await ctx.engine.runOnce();
    await acceptBooking(ctx.db, {
      bookingId: created.id,
      therapistId: await offeredTo(created.id),
      now: ctx.clock.now(),
    });
    const atConfirm = await ctx.read(f, created.id);
    await ctx.engine.runOnce();
    const cancel = await ctx.v1.cancel('ext:life-1', f.key, { reason: 'Guest changed plans' });
    expectStatus(cancel, 200);
    await ctx.engine.runOnce();

    const events = eventsOf(receiver, f.endpoint.secret, created.id);
    expect(events).toEqual([
      { type: 'booking.created', timestamp: atCreate.updated_at, livemode: true, data: { booking: atCreate } },
      { type: 'booking.confirmed', timestamp: atConfirm.updated_at, livemode: true, data: { booking: atConfirm } },
      {
        type: 'booking.cancelled',
        timestamp: cancel.body.data.updated_at,
        livemode: true,
        data: { booking: cancel.body.data },
      },
    ]);
    expect(atCreate.status).toBe('pending');
    expect(atConfirm.status).toBe('confirmed');
    expect(cancel.body.data.cancellation).toMatchObject({ cancelled_by: 'partner', reason: 'Guest changed plans' });
    // One webhook-id per event, distinct across events.
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(receiver.received.length);
  });

  it('create, no answer within therapist_response_minutes, accept: booking.awaiting_therapist then booking.confirmed', async () => {
    const created = await ctx.book(f, { start_at: '2026-11-26T09:00:00Z' });
    await ctx.engine.runOnce();
    ctx.clock.advance({ minutes: 14 });
    expect((await ctx.engine.runOnce()).timedOut).toBe(0); // not yet: the venue waits 15 minutes
    ctx.clock.advance({ minutes: 1, seconds: 1 });
    expect((await ctx.engine.runOnce()).timedOut).toBe(1);
    const waiting = await ctx.read(f, created.id);
    expect(waiting.status).toBe('awaiting_therapist');
    // Its holds are kept: the therapist still holds it and can accept it.
    await acceptBooking(ctx.db, {
      bookingId: created.id,
      therapistId: await offeredTo(created.id),
      now: ctx.clock.now(),
    });
    const confirmed = await ctx.read(f, created.id);
    await ctx.engine.runOnce();

    expect(eventsOf(receiver, f.endpoint.secret, created.id).map((e) => [e.type, e.data.booking])).toEqual([
      ['booking.created', expect.objectContaining({ status: 'pending' })],
      ['booking.awaiting_therapist', waiting],
      ['booking.confirmed', confirmed],
    ]);
  });

  it('complete and no-show: booking.completed and booking.no_show once the treatment has started', async () => {
    const ids = [];
    for (const start of ['2026-11-27T09:00:00Z', '2026-11-27T11:00:00Z']) {
      const created = await ctx.book(f, { start_at: start });
      await acceptBooking(ctx.db, {
        bookingId: created.id,
        therapistId: await offeredTo(created.id),
        now: ctx.clock.now(),
      });
      ids.push(created.id);
    }
    await ctx.engine.runOnce();
    ctx.clock.advance({ days: 6 }); // past both starts
    await finishBooking(ctx.db, { bookingId: ids[0]!, outcome: 'completed', now: ctx.clock.now() });
    await finishBooking(ctx.db, { bookingId: ids[1]!, outcome: 'no_show', now: ctx.clock.now() });
    await ctx.engine.runOnce();

    const completed = eventsOf(receiver, f.endpoint.secret, ids[0]!);
    const noShow = eventsOf(receiver, f.endpoint.secret, ids[1]!);
    expect(completed.map((e) => e.type)).toEqual(['booking.created', 'booking.confirmed', 'booking.completed']);
    expect(noShow.map((e) => e.type)).toEqual(['booking.created', 'booking.confirmed', 'booking.no_show']);
    expect(completed[2]!.data.booking).toEqual(await ctx.read(f, ids[0]!));
    expect(noShow[2]!.data.booking).toEqual(await ctx.read(f, ids[1]!));
  });

  it('a create whose transaction rolls back at commit, after its event was written, delivers nothing', async () => {
    const before = receiver.received.length;
    const events = async () => (await ctx.db.selectFrom('webhook_events').select('id').execute()).length;
    const eventsBefore = await events();
    // A deferred constraint trigger fails the commit itself: booking and event were both written, then undone.
    await sql`create function fail_commit() returns trigger language plpgsql as $$
      begin raise exception 'commit refused by the test'; end $$`.execute(ctx.db);
    await sql`create constraint trigger fail_commit after insert on bookings deferrable initially deferred
      for each row execute function fail_commit()`.execute(ctx.db);
    try {
      const res = await ctx.v1.book(f.venue.id, bookingBody(f.variant.id, { start_at: '2026-11-28T09:00:00Z' }), f.key);
      expect(res.status).toBe(500);
    } finally {
      await sql`drop trigger fail_commit on bookings`.execute(ctx.db);
      await sql`drop function fail_commit()`.execute(ctx.db);
    }
    await ctx.engine.runOnce();
    expect(await events()).toBe(eventsBefore);
    expect(receiver.received.length).toBe(before);
    // Refused creates (slot taken, wrong currency) write no event either.
    await ctx.book(f, {
      start_at: '2026-11-28T09:00:00Z',
      guest: { ...bookingBody(f.variant.id).guest, email: 'a@example.com' },
    });
    const refused = await ctx.v1.book(
      f.venue.id,
      bookingBody(f.variant.id, { start_at: '2026-11-28T09:00:00Z', price_paid: { amount: 90, currency: 'USD' } }),
      f.key,
    );
    expect(refused.status).toBe(422);
    expect(await events()).toBe(eventsBefore + 1);
  });
});
