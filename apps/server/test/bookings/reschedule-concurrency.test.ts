import { describe, expect, it } from 'vitest';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { overlappingHolds } from '../support/overlapping-holds.js';
import { setup } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';
import { expectStatus } from '../support/typed-api.js';

// PGlite is one connection: requests never overlap there, so these tests would prove nothing on it.
if (testDbKind !== 'postgres')
  console.warn('reschedule concurrency tests need a real PostgreSQL (DATABASE_URL); skipped on PGlite');

describe.skipIf(testDbKind !== 'postgres')('reschedule integrity under concurrency (PostgreSQL)', () => {
  // As in concurrency.test.ts: these tests are about what the database ends up holding, so requests wait.
  const ctx = setup({ poolSize: 20, acquireTimeoutMs: 60_000, statementTimeoutMs: 60_000 });

  const guest = (i: number) => ({ first_name: 'G', last_name: `${i}`, email: `g${i}@example.com` });

  it('gives one 200 and nine 409 slot_unavailable to 10 reschedules of different bookings onto one free slot', async () => {
    // One room, open 08:00 to 17:00 UTC (09:00 to 18:00 in Paris): eight bookings fill 08:00 to 15:00 of one day,
    // two more are on the next day, and all ten ask at once for the one free slot left, 16:00.
    const f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 1, therapists: 1 });
    const starts = [
      ...Array.from({ length: 8 }, (_, i) => `2026-11-25T${String(8 + i).padStart(2, '0')}:00:00Z`),
      '2026-11-26T09:00:00Z',
      '2026-11-26T10:00:00Z',
    ];
    const ids: string[] = [];
    for (const [i, start] of starts.entries()) {
      const res = await ctx.v1.book(f.venue.id, bookingBody(f.variant.id, { start_at: start, guest: guest(i) }), f.key);
      expectStatus(res, 201);
      ids.push(res.body.data.id);
    }
    const free = '2026-11-25T16:00:00Z';
    const responses = await Promise.all(ids.map((id) => ctx.v1.reschedule(id, f.key, free)));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409 && r.body.error === 'slot_unavailable')).toHaveLength(9);
    const atFree = await ctx.db
      .selectFrom('bookings')
      .select('id')
      .where('venue_id', '=', f.venue.id)
      .where('start_at', '=', free)
      .execute();
    expect(atFree).toHaveLength(1);
    expect(await overlappingHolds(ctx.db)).toBe(0);
  });

  it('gives the slot to one winner when a reschedule races a create for it, many times over', async () => {
    const f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 1, therapists: 1 });
    for (let round = 0; round < 6; round++) {
      const day = `2026-12-${String(1 + round).padStart(2, '0')}`;
      const mover = await ctx.v1.book(
        f.venue.id,
        bookingBody(f.variant.id, { start_at: `${day}T08:00:00Z`, guest: guest(round) }),
        f.key,
      );
      expectStatus(mover, 201);
      const target = `${day}T12:00:00Z`;
      const [moved, created] = await Promise.all([
        ctx.v1.reschedule(mover.body.data.id, f.key, target),
        ctx.v1.book(f.venue.id, bookingBody(f.variant.id, { start_at: target, guest: guest(50 + round) }), f.key),
      ]);
      const winners = [moved.status === 200, created.status === 201].filter(Boolean);
      expect(winners, `${day}: ${moved.status} ${created.status}`).toHaveLength(1);
      const loser = moved.status === 200 ? created : moved;
      expect([loser.status, (loser.body as { error: string }).error]).toEqual([409, 'slot_unavailable']);
      const atTarget = await ctx.db
        .selectFrom('bookings')
        .select('id')
        .where('venue_id', '=', f.venue.id)
        .where('start_at', '=', target)
        .where('status', '!=', 'cancelled')
        .execute();
      expect(atTarget).toHaveLength(1);
      expect(await overlappingHolds(ctx.db)).toBe(0);
    }
  });

  it('ends a reschedule racing a cancel of the same booking in one consistent state', async () => {
    const f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 2, therapists: 2 });
    for (let round = 0; round < 6; round++) {
      const day = `2026-12-${String(10 + round).padStart(2, '0')}`;
      const booking = await ctx.v1.book(
        f.venue.id,
        bookingBody(f.variant.id, { start_at: `${day}T09:00:00Z`, guest: guest(round) }),
        f.key,
      );
      expectStatus(booking, 201);
      const id = booking.body.data.id;
      const [moved, cancelled] = await Promise.all([
        ctx.v1.reschedule(id, f.key, `${day}T13:00:00Z`),
        ctx.v1.cancel(id, f.key, { reason: 'race' }),
      ]);
      // The cancel always succeeds (a moved booking can still be cancelled); the move either went first or is refused.
      expect(cancelled.status).toBe(200);
      expect([200, 422]).toContain(moved.status);
      if (moved.status === 422) expect((moved.body as { error: string }).error).toBe('BOOKING_ALREADY_CANCELLED');
      const row = await ctx.db
        .selectFrom('bookings')
        .select(['status', 'start_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('cancelled');
      const held = await ctx.db
        .selectFrom('therapist_reservations')
        .select('booking_id')
        .where('booking_id', '=', id)
        .unionAll(ctx.db.selectFrom('room_reservations').select('booking_id').where('booking_id', '=', id))
        .execute();
      expect(held).toEqual([]);
      const events = await ctx.db
        .selectFrom('webhook_events')
        .select('type')
        .where('booking_id', '=', id)
        .orderBy('created_at')
        .execute();
      expect(events.map((e) => e.type)).toEqual(
        moved.status === 200
          ? ['booking.created', 'booking.rescheduled', 'booking.cancelled']
          : ['booking.created', 'booking.cancelled'],
      );
      expect(await overlappingHolds(ctx.db)).toBe(0);
    }
  });

  it('moves by 30 minutes onto its own old time while others book around it, never double booking', async () => {
    const f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 1, therapists: 1 });
    const booking = await ctx.v1.book(
      f.venue.id,
      bookingBody(f.variant.id, { start_at: '2026-12-20T10:00:00Z', guest: guest(1) }),
      f.key,
    );
    expectStatus(booking, 201);
    const [moved, ...others] = await Promise.all([
      ctx.v1.reschedule(booking.body.data.id, f.key, '2026-12-20T10:30:00Z'),
      ...['2026-12-20T09:00:00Z', '2026-12-20T11:30:00Z', '2026-12-20T11:00:00Z'].map((start, i) =>
        ctx.v1.book(f.venue.id, bookingBody(f.variant.id, { start_at: start, guest: guest(10 + i) }), f.key),
      ),
    ]);
    for (const r of others) expect([201, 409]).toContain(r.status);
    expect([200, 409]).toContain(moved.status);
    expect(await overlappingHolds(ctx.db)).toBe(0);
  });
});
