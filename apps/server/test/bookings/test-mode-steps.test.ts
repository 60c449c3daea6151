import { describe, expect, it } from 'vitest';
import { error } from '../support/api.js';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey } from '../support/factories.js';
import { overlappingHolds } from '../support/overlapping-holds.js';
import { setup } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';
import { dashboardOf, makePerson } from '../dashboard/dashboard-support.js';

/** The test helpers move test bookings by the desk's and the timeout job's own code, and refuse live keys. */
describe('test helpers', () => {
  const ctx = setup(); // now: 2026-11-22T08:00:00Z
  const world = async () => {
    const f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 2, therapists: 2 });
    const test = (await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { livemode: false })).key;
    return { ...f, test };
  };
  const helper = (id: string, step: string, key: string, body?: object) =>
    ctx.api.post(`/v1/test_helpers/bookings/${id}/${step}`, body, key);
  const eventsOf = async (bookingId: string) =>
    (
      await ctx.db
        .selectFrom('webhook_events')
        .select(['type', 'livemode'])
        .where('booking_id', '=', bookingId)
        .execute()
    )
      .map((e) => `${e.type}${e.livemode ? '' : ' (test)'}`)
      // The test clock stands still: every event of a booking has one timestamp, so they are compared as a set.
      .sort();

  it('accepts a test booking with a therapist it was offered, emitting booking.confirmed in test mode', async () => {
    const w = await world();
    const booked = await ctx.api.book(w.venue.id, bookingBody(w.variant.id), w.test);
    expect(booked.status).toBe(201);
    const res = await helper(booked.body.data.id, 'accept', w.test, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ id: booked.body.data.id, status: 'confirmed', livemode: false });
    expect(await eventsOf(booked.body.data.id)).toEqual(['booking.confirmed (test)', 'booking.created (test)']);
    const named = await ctx.api.book(
      w.venue.id,
      bookingBody(w.variant.id, { start_at: '2026-11-25T11:00:00Z' }),
      w.test,
    );
    const therapist = w.therapists[1]!.id;
    const accepted = await helper(named.body.data.id, 'accept', w.test, { therapist_id: therapist });
    expect(accepted.status).toBe(200);
    const row = await ctx.db
      .selectFrom('bookings')
      .select('therapist_id')
      .where('id', '=', named.body.data.id)
      .executeTakeFirstOrThrow();
    expect(row.therapist_id).toBe(therapist);
    const again = await helper(named.body.data.id, 'accept', w.test, { therapist_id: therapist });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/is confirmed; only pending or awaiting_therapist bookings can be accepted/);
  });

  it('expires a pending test booking now, then no-shows it before its start once accepted; complete waits for the start', async () => {
    const w = await world();
    const booked = await ctx.api.book(w.venue.id, bookingBody(w.variant.id), w.test);
    const id = booked.body.data.id;
    const expired = await helper(id, 'expire', w.test);
    expect([expired.status, expired.body.data.status]).toEqual([200, 'awaiting_therapist']);
    expect((await helper(id, 'expire', w.test)).status).toBe(409);
    expect((await helper(id, 'accept', w.test)).status).toBe(200);
    const complete = await helper(id, 'complete', w.test);
    expect(complete.status).toBe(409);
    expect(complete.body.error).toMatch(/only once it has started/);
    const noShow = await helper(id, 'no_show', w.test);
    expect([noShow.status, noShow.body.data.status]).toEqual([200, 'no_show']);
    expect(await eventsOf(id)).toEqual([
      'booking.awaiting_therapist (test)',
      'booking.confirmed (test)',
      'booking.created (test)',
      'booking.no_show (test)',
    ]);
    const holds = await ctx.db.selectFrom('room_reservations').select('room_id').where('booking_id', '=', id).execute();
    expect(holds).toEqual([]);
  });

  it('refuses every helper to a live key with 403 Test mode only, and answers a live booking as absent to a test key', async () => {
    const w = await world();
    const live = await ctx.api.book(w.venue.id, bookingBody(w.variant.id), w.key);
    for (const step of ['accept', 'expire', 'complete', 'no_show']) {
      const res = await helper(live.body.data.id, step, w.key, step === 'accept' ? {} : undefined);
      expect([step, res.status, res.body]).toEqual([step, 403, error('Test mode only')]);
      const other = await helper(live.body.data.id, step, w.test, step === 'accept' ? {} : undefined);
      expect([step, other.status, other.body]).toEqual([step, 404, error('Booking not found')]);
    }
    expect(await eventsOf(live.body.data.id)).toEqual(['booking.created']);
  });

  it('gives one 200 and one 409 with a sentence to two admins regenerating the same key at once', async () => {
    const w = await world();
    const current = await makeApiKey(ctx.db, ctx.vault, w.organisation.id, { kind: 'dashboard' });
    const person = await makePerson(ctx.db, w.organisation.id, { role: 'admin' });
    const other = await makePerson(ctx.db, w.organisation.id, { role: 'admin' });
    const dash = dashboardOf(ctx.app);
    const [a, b] = [await dash.signIn(person.email), await dash.signIn(other.email)];
    // Both were shown the same key and press regenerate at the same moment.
    const body = { key_id: current.id };
    const results = await Promise.all([dash.post('/key/regenerate', body, a), dash.post('/key/regenerate', body, b)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses, JSON.stringify(results.map((r) => r.body))).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.error).toBe(
      'This key was regenerated by someone else a moment ago; reload the page to see the new key.',
    );
    const audited = await ctx.db
      .selectFrom('audit_events')
      .select('id')
      .where('organisation_id', '=', w.organisation.id)
      .where('action', '=', 'key.regenerated')
      .execute();
    expect(audited).toHaveLength(1);
  });
});

describe.skipIf(testDbKind !== 'postgres')('test mode under concurrency (PostgreSQL)', () => {
  const ctx = setup({ poolSize: 20, acquireTimeoutMs: 60_000, statementTimeoutMs: 60_000 });

  it('gives one 201 per mode to 10 live and 10 test creates of one capacity-1 slot, and 409 to the rest', async () => {
    const f = await makeBookableVenue(ctx.db, ctx.vault);
    const test = (await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { livemode: false })).key;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ctx.v1.book(
          f.venue.id,
          bookingBody(f.variant.id, { guest: { first_name: 'G', last_name: `${i}`, email: `g${i}@example.com` } }),
          i % 2 === 0 ? f.key : test,
        ),
      ),
    );
    const byMode = (even: number) => responses.filter((_, i) => i % 2 === even);
    for (const mode of [byMode(0), byMode(1)]) {
      expect(mode.filter((r) => r.status === 201)).toHaveLength(1);
      expect(mode.filter((r) => r.status === 409 && r.body.error === 'slot_unavailable')).toHaveLength(9);
    }
    const rows = await ctx.db
      .selectFrom('bookings')
      .select(['livemode'])
      .where('venue_id', '=', f.venue.id)
      .orderBy('livemode')
      .execute();
    expect(rows.map((r) => r.livemode)).toEqual([false, true]);
    expect(await overlappingHolds(ctx.db)).toBe(0);
  });
});
