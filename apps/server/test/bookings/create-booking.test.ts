import type { CreateBookingBody } from '@spa/contract';
import type { z } from 'zod';
import { EVERY_DAY, makeRoom, makeTherapist } from '../support/factories.js';
import { holdsOf } from '../support/holds.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookingBody, makeBookableVenue, type BookableVenue } from '../support/booking-fixture.js';
import { setup, TEST_NOW as NOW } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';

type CreateBody = z.input<typeof CreateBookingBody>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('POST /v1/venues/{venue_id}/bookings: 201 Created', () => {
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
  const book = (venueId: string, body: CreateBody, key: string) =>
    ctx.partner(key).bookings.create({ params: { venue_id: venueId }, body });

  it('answers the full booking shape, status pending, echoing price_paid as total_price even when it differs from the catalogue', async () => {
    const res = await book(
      f.venue.id,
      bookingBody(f.variant.id, {
        start_at: '2026-11-25T09:00:00Z',
        price_paid: { amount: 75.5, currency: 'EUR' }, // the catalogue says 90
        notes: 'Allergic to almond oil',
        external_reference: 'hotel.ROOM-412',
        external_id: 'pms-1',
        guest: {
          first_name: 'Claire',
          last_name: 'Martin',
          email: 'claire.shape@example.com',
          phone: '+33612345678',
          language: 'en',
        },
      }),
      f.key,
    );
    expectStatus(res, 201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    const customer = await ctx.db
      .selectFrom('customers')
      .select(['id', 'first_name', 'last_name', 'email', 'phone', 'language'])
      .where('email', '=', 'claire.shape@example.com')
      .executeTakeFirstOrThrow();
    expect(customer).toMatchObject({
      first_name: 'Claire',
      last_name: 'Martin',
      phone: '+33612345678',
      language: 'en',
    });
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(UUID),
        booking_number: expect.any(Number),
        status: 'pending',
        venue_id: f.venue.id,
        treatment_id: f.treatment.id,
        variant_id: f.variant.id,
        customer_id: customer.id,
        start_at: '2026-11-25T09:00:00Z',
        end_at: '2026-11-25T10:00:00Z',
        guest_count: 1,
        therapists_accepted: 0,
        notes: 'Allergic to almond oil',
        external_reference: 'hotel.ROOM-412',
        external_id: 'pms-1',
        client_type: 'hotel',
        total_price: { amount: 75.5, currency: 'EUR' },
        payment_method: 'partner_billed',
        payment_status: 'paid',
        created_at: NOW,
        updated_at: NOW,
        cancellation: null,
      },
    });
    const row = await ctx.db
      .selectFrom('bookings')
      .select(['total_price_minor', 'currency', 'therapist_id'])
      .where('id', '=', res.body.data.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ total_price_minor: 7550, currency: 'EUR', therapist_id: null });
  });

  it('defaults guest_count to 1, notes, external_reference and external_id to null, and the guest language to fr', async () => {
    const body = bookingBody(f.variant.id, {
      start_at: '2026-11-25T12:00:00Z',
      external_reference: undefined,
      guest: { first_name: 'Jo', last_name: 'Doe', email: 'jo.defaults@example.com' },
    });
    delete (body as { guest_count?: number }).guest_count;
    const res = await book(f.venue.id, body, f.key);
    expectStatus(res, 201);
    expect(res.body.data).toMatchObject({
      guest_count: 1,
      notes: null,
      external_reference: null,
      external_id: null,
      client_type: 'external',
    });
    const customer = await ctx.db
      .selectFrom('customers')
      .select(['phone', 'language'])
      .where('id', '=', res.body.data.customer_id)
      .executeTakeFirstOrThrow();
    expect(customer).toEqual({ phone: null, language: 'fr' });
  });

  it('takes start_at with any explicit offset and answers it in UTC', async () => {
    const res = await book(f.venue.id, bookingBody(f.variant.id, { start_at: '2026-11-25T15:00:00+01:00' }), f.key);
    expectStatus(res, 201);
    expect([res.body.data.start_at, res.body.data.end_at]).toEqual(['2026-11-25T14:00:00Z', '2026-11-25T15:00:00Z']);
  });

  it('holds one room for [start, end + turnover) and one therapist per guest for [start, end)', async () => {
    const res = await book(f.venue.id, bookingBody(f.variant.id, { start_at: '2026-11-26T09:00:00Z' }), f.key);
    expectStatus(res, 201);
    const room = await holdsOf(ctx.db, 'room_reservations', res.body.data.id);
    expect(room).toEqual([{ id: expect.any(String), range: '[2026-11-26T09:00:00Z, 2026-11-26T10:15:00Z)' }]);
    expect(f.rooms.map((r) => r.id)).toContain(room[0]!.id);
    const therapists = await holdsOf(ctx.db, 'therapist_reservations', res.body.data.id);
    expect(therapists).toEqual([{ id: expect.any(String), range: '[2026-11-26T09:00:00Z, 2026-11-26T10:00:00Z)' }]);
    expect(f.therapists.map((t) => t.id)).toContain(therapists[0]!.id);
  });

  it('offers the booking to every qualified therapist free at that slot and to no one else, holding guest_count of them', async () => {
    const g = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 0, therapists: 3 });
    const [roomA, roomB] = [
      await makeRoom(ctx.db, g.venue.id, { capacity: 2 }),
      await makeRoom(ctx.db, g.venue.id, { capacity: 2 }),
    ];
    const shift = (start: string, end: string) => [
      { venue_id: g.venue.id, days_of_week: EVERY_DAY, start_time: start, end_time: end },
    ];
    const unskilled = await makeTherapist(ctx.db, g.organisation.id, {
      skills: ['facial'],
      shifts: shift('09:00', '18:00'),
    });
    const afternoon = await makeTherapist(ctx.db, g.organisation.id, { shifts: shift('13:00', '18:00') });
    const absent = await makeTherapist(ctx.db, g.organisation.id, { shifts: shift('09:00', '18:00') });
    await ctx.db
      .insertInto('therapist_absences')
      .values({ therapist_id: absent.id, start_at: '2026-11-27T08:30:00Z', end_at: '2026-11-27T09:30:00Z' })
      .execute();

    const first = await book(g.venue.id, bookingBody(g.variant.id, { start_at: '2026-11-27T09:00:00Z' }), g.key);
    expectStatus(first, 201);
    const qualified = g.therapists.map((t) => t.id).sort();
    const offers = async (id: string) =>
      (await ctx.db.selectFrom('booking_offers').select('therapist_id').where('booking_id', '=', id).execute())
        .map((o) => o.therapist_id)
        .sort();
    expect(await offers(first.body.data.id)).toEqual(qualified);
    const [busy] = await holdsOf(ctx.db, 'therapist_reservations', first.body.data.id);

    const second = await book(
      g.venue.id,
      bookingBody(g.variant.id, { start_at: '2026-11-27T09:00:00Z', guest_count: 2 }),
      g.key,
    );
    expectStatus(second, 201);
    const free = qualified.filter((id) => id !== busy!.id);
    expect(await offers(second.body.data.id)).toEqual(free);
    expect((await holdsOf(ctx.db, 'therapist_reservations', second.body.data.id)).map((h) => h.id)).toEqual(free);
    const rooms = [
      ...(await holdsOf(ctx.db, 'room_reservations', first.body.data.id)),
      ...(await holdsOf(ctx.db, 'room_reservations', second.body.data.id)),
    ];
    expect(rooms.map((r) => r.id).sort()).toEqual([roomA.id, roomB.id].sort());
    expect([unskilled.id, afternoon.id, absent.id].some((id) => free.includes(id))).toBe(false);
  });

  it('derives client_type from the lower-cased part of external_reference before the dot, and echoes the reference as sent', async () => {
    const g = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 10, therapists: 10 });
    const cases: [string | undefined, string][] = [
      ['hotel.ROOM-412', 'hotel'],
      ['HOTEL.Suite-9', 'hotel'],
      ['Agency.VOY-1', 'agency'],
      ['CORPORATE.acme', 'corporate'],
      ['hotelier.x', 'external'],
      ['partner.hotel', 'external'],
      ['ota.booking-77', 'external'],
      [undefined, 'external'],
    ];
    for (const [reference, type] of cases) {
      const res = await book(
        g.venue.id,
        bookingBody(g.variant.id, { start_at: '2026-11-25T10:00:00Z', external_reference: reference }),
        g.key,
      );
      expectStatus(res, 201);
      expect([res.body.data.client_type, res.body.data.external_reference], String(reference)).toEqual([
        type,
        reference ?? null,
      ]);
    }
  });

  it('finds the guest as one customer by organisation and lower-cased email, and numbers bookings increasingly', async () => {
    const g = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 3, therapists: 3 });
    const guest = (email: string) => ({ first_name: 'Ana', last_name: 'Lopez', email });
    const a = await book(
      g.venue.id,
      bookingBody(g.variant.id, { start_at: '2026-11-25T10:00:00Z', guest: guest('Ana.Lopez@Example.com') }),
      g.key,
    );
    const b = await book(
      g.venue.id,
      bookingBody(g.variant.id, { start_at: '2026-11-25T10:00:00Z', guest: guest('ana.lopez@example.com') }),
      g.key,
    );
    expectStatus(a, 201);
    expectStatus(b, 201);
    expect(b.body.data.customer_id).toBe(a.body.data.customer_id);
    const rows = await ctx.db
      .selectFrom('customers')
      .select(['id', 'email'])
      .where('organisation_id', '=', g.organisation.id)
      .execute();
    expect(rows).toEqual([{ id: a.body.data.customer_id, email: 'Ana.Lopez@Example.com' }]);

    // Another organisation has its own customers, even with the same email.
    const h = await makeBookableVenue(ctx.db, ctx.vault);
    const c = await book(
      h.venue.id,
      bookingBody(h.variant.id, { start_at: '2026-11-25T10:00:00Z', guest: guest('ana.lopez@example.com') }),
      h.key,
    );
    expectStatus(c, 201);
    expect(c.body.data.customer_id).not.toBe(a.body.data.customer_id);

    const numbers = [a, b, c].map((r) => r.body.data.booking_number);
    expect(numbers).toEqual([...numbers].sort((x, y) => x - y));
    expect(new Set(numbers).size).toBe(3);
  });
});
