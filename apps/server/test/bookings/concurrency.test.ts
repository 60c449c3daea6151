import { describe, expect, it } from 'vitest';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { EVERY_DAY } from '../support/calendar.js';
import { makeRoom, makeTherapist, makeTreatment, makeVenue } from '../support/factories.js';
import { overlappingHolds } from '../support/overlapping-holds.js';
import { setup } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';

// PGlite is one connection: requests never overlap there, so these tests would prove nothing on it.
if (testDbKind !== 'postgres')
  console.warn('concurrency tests need a real PostgreSQL (DATABASE_URL); skipped on PGlite');

describe.skipIf(testDbKind !== 'postgres')('booking integrity under concurrency (PostgreSQL)', () => {
  // 80 requests share 20 connections: on a busy machine a request may wait for a connection, or for the slot's
  // lock, longer than production's 2 s and 5 s and be answered 503 (as it should be in production). These tests are
  // about what the database ends up holding, so their requests wait: the limits are deadlines against a hang.
  const ctx = setup({ poolSize: 20, acquireTimeoutMs: 60_000, statementTimeoutMs: 60_000 });

  it('gives exactly one 201 and 49 slot_unavailable to 50 parallel creates of a capacity-1 slot', async () => {
    const f = await makeBookableVenue(ctx.db, ctx.vault);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        ctx.v1.book(
          f.venue.id,
          bookingBody(f.variant.id, { guest: { first_name: 'G', last_name: `${i}`, email: `g${i}@example.com` } }),
          f.key,
        ),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409 && r.body.error === 'slot_unavailable')).toHaveLength(49);
    const rows = await ctx.db.selectFrom('bookings').select('id').where('venue_id', '=', f.venue.id).execute();
    expect(rows).toHaveLength(1);
    expect(await overlappingHolds(ctx.db)).toBe(0);
  });

  it('creates one booking from 20 parallel creates with one external_id', async () => {
    const f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 5, therapists: 5 });
    const body = bookingBody(f.variant.id, { external_id: 'same-key' });
    const responses = await Promise.all(Array.from({ length: 20 }, () => ctx.v1.book(f.venue.id, body, f.key)));
    for (const r of responses) {
      expect([201, 200, 409]).toContain(r.status);
      if (r.status === 409) expect(r.body.error).toBe('duplicate_external_id');
    }
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    const ids = new Set(responses.flatMap((r) => (r.status === 201 || r.status === 200 ? [r.body.data.id] : [])));
    expect(ids.size).toBe(1);
    const rows = await ctx.db.selectFrom('bookings').select('id').where('venue_id', '=', f.venue.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('ends a random mix of creates and cancels over a few slots with no overlapping hold', async () => {
    const f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 2, therapists: 2 });
    const starts = ['2026-11-25T08:00:00Z', '2026-11-25T08:30:00Z', '2026-11-25T09:00:00Z', '2026-11-25T10:00:00Z'];
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const created: string[] = [];
    const operations = Array.from({ length: 80 }, async (_, i) => {
      if (i % 4 === 3 && created.length) {
        const id = created[Math.floor(random() * created.length)]!;
        const r = await ctx.v1.cancel(id, f.key, { reason: 'load' });
        expect([200, 422]).toContain(r.status);
        return;
      }
      const r = await ctx.v1.book(
        f.venue.id,
        bookingBody(f.variant.id, {
          start_at: starts[Math.floor(random() * starts.length)],
          guest_count: random() < 0.2 ? 2 : 1,
          guest: { first_name: 'M', last_name: `${i}`, email: `mix${i}@example.com` },
        }),
        f.key,
      );
      expect([201, 409]).toContain(r.status);
      if (r.status === 201) created.push(r.body.data.id);
    });
    await Promise.all(operations);

    expect(await overlappingHolds(ctx.db)).toBe(0);
    const live = await ctx.db
      .selectFrom('bookings')
      .select(['id', 'guest_count', 'status'])
      .where('venue_id', '=', f.venue.id)
      .execute();
    for (const booking of live) {
      const rooms = await ctx.db
        .selectFrom('room_reservations')
        .select('room_id')
        .where('booking_id', '=', booking.id)
        .execute();
      const therapists = await ctx.db
        .selectFrom('therapist_reservations')
        .select('therapist_id')
        .where('booking_id', '=', booking.id)
        .execute();
      if (booking.status === 'cancelled') {
        expect([rooms.length, therapists.length]).toEqual([0, 0]);
      } else {
        expect([rooms.length, therapists.length]).toEqual([1, booking.guest_count]);
      }
    }
  });

  it('never lets one therapist take bookings at two venues closer than the inter-venue buffer', async () => {
    for (let round = 0; round < 5; round++) {
      // Both venues keep 30 minutes: the rule uses the buffer of the venue being booked.
      const f = await makeBookableVenue(ctx.db, ctx.vault, {
        therapists: 0,
        venue: { inter_venue_buffer_minutes: 30 },
      });
      const other = await makeVenue(ctx.db, f.organisation.id, { inter_venue_buffer_minutes: 30 });
      await makeRoom(ctx.db, other.id);
      const otherTreatment = await makeTreatment(ctx.db, other.id, {
        variants: [{ duration_minutes: 60, price_minor: 9000 }],
      });
      await makeTherapist(ctx.db, f.organisation.id, {
        shifts: [
          { venue_id: f.venue.id, days_of_week: EVERY_DAY, start_time: '09:00', end_time: '18:00' },
          { venue_id: other.id, days_of_week: EVERY_DAY, start_time: '09:00', end_time: '18:00' },
        ],
      });
      // A at 10:00–11:00 Paris, B at 11:00–12:00 Paris: back to back, inside B's 30-minute buffer.
      const [a, b] = await Promise.all([
        ctx.v1.book(f.venue.id, bookingBody(f.variant.id, { start_at: '2026-11-25T09:00:00Z' }), f.key),
        ctx.v1.book(other.id, bookingBody(otherTreatment.variant.id, { start_at: '2026-11-25T10:00:00Z' }), f.key),
      ]);
      expect([a.status, b.status].filter((s) => s === 201).length).toBeLessThanOrEqual(1);
      expect([a.status, b.status]).toContain(201);
    }
  });
});
