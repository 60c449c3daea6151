import { EVERY_DAY, makeRoom, makeTherapist, makeTreatment, makeVenue } from '../support/factories.js';
import { holdsOf } from '../support/holds.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookingBody, makeBookableVenue, type BookableVenue } from '../support/booking-fixture.js';
import { setup, TEST_NOW as NOW } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';

describe('POST /v1/venues/{venue_id}/bookings: idempotent replay by external_id', () => {
  const ctx = setup();
  let f: BookableVenue;
  beforeAll(async () => {
    f = await makeBookableVenue(ctx.db, ctx.vault, {
      rooms: 2,
      therapists: 2,
      venue: { room_turnover_buffer_minutes: 15 },
    });
  });
  beforeEach(() => ctx.clock.set(NOW));

  it('answers 200 with the original booking and Idempotent-Replayed: true, keeping one row, whatever the second body says', async () => {
    const first = await ctx.v1.book(
      f.venue.id,
      bookingBody(f.variant.id, { start_at: '2026-11-28T12:00:00Z', external_id: 'replay-1' }),
      f.key,
    );
    const again = await ctx.v1.book(
      f.venue.id,
      bookingBody(f.variant.id, {
        start_at: '2026-11-28T14:00:00Z',
        external_id: 'replay-1',
        price_paid: { amount: 1, currency: 'EUR' },
      }),
      f.key,
    );
    expectStatus(first, 201);
    expectStatus(again, 200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const rows = await ctx.db.selectFrom('bookings').select('id').where('external_id', '=', 'replay-1').execute();
    expect(rows).toEqual([{ id: first.body.data.id }]);
    expect(await holdsOf(ctx.db, 'room_reservations', first.body.data.id)).toHaveLength(1);
  });

  it('replays even after the slot has been taken since, and returns a cancelled original as it is now', async () => {
    const g = await makeBookableVenue(ctx.db, ctx.vault);
    const body = bookingBody(g.variant.id, { start_at: '2026-11-28T12:00:00Z', external_id: 'replay-2' });
    const first = await ctx.v1.book(g.venue.id, body, g.key);
    expectStatus(first, 201);
    const again = await ctx.v1.book(g.venue.id, body, g.key); // the only room is now held, by this very booking
    expectStatus(again, 200);
    expect(again.body.data.id).toBe(first.body.data.id);
    ctx.clock.set('2026-11-23T08:00:00Z');
    expect((await ctx.v1.cancel(first.body.data.id, g.key, { reason: 'test' })).status).toBe(200);
    const replay = await ctx.v1.book(g.venue.id, body, g.key);
    expectStatus(replay, 200);
    expect([replay.headers.get('idempotent-replayed'), replay.body.data.status]).toEqual(['true', 'cancelled']);
  });

  it('treats the same external_id at another venue as a new booking (unique per venue)', async () => {
    const sibling = await makeVenue(ctx.db, f.organisation.id);
    await makeRoom(ctx.db, sibling.id);
    const treatment = await makeTreatment(ctx.db, sibling.id);
    await makeTherapist(ctx.db, f.organisation.id, {
      shifts: [{ venue_id: sibling.id, days_of_week: EVERY_DAY, start_time: '09:00', end_time: '18:00' }],
    });
    const here = await ctx.v1.book(
      f.venue.id,
      bookingBody(f.variant.id, { start_at: '2026-11-28T15:00:00Z', external_id: 'shared-id' }),
      f.key,
    );
    const there = await ctx.v1.book(
      sibling.id,
      bookingBody(treatment.variant.id, { start_at: '2026-11-28T15:00:00Z', external_id: 'shared-id' }),
      f.key,
    );
    expectStatus(here, 201);
    expectStatus(there, 201);
    expect(there.body.data.id).not.toBe(here.body.data.id);
  });
});
