import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey, makeOrganisation, makeTreatment, makeVenue } from '../support/factories.js';
import { createTestContext, type TestContext } from '../support/test-app.js';

describe('POST /v1/venues/{venue_id}/bookings (spec 4.7)', () => {
  let ctx: TestContext;
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  beforeAll(async () => {
    ctx = await createTestContext(); // now: 2026-11-22T08:00:00Z
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 2, therapists: 2, venue: { room_turnover_buffer_minutes: 15 } });
  });
  afterAll(() => ctx.close());

  const post = (body: object, venue = f.venue.id, key = f.key) => request(ctx.app).post(`/v1/venues/${venue}/bookings`).set('Authorization', `Bearer ${key}`).send(body);

  it('creates a pending booking with the full shape, price_paid as total_price, and holds a room and a therapist', async () => {
    const res = await post(bookingBody(f.variant.id, { start_at: '2026-11-25T09:00:00Z', price_paid: { amount: 75.5, currency: 'EUR' }, notes: 'Allergie', external_id: 'c-1' }));
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), booking_number: expect.any(Number), status: 'pending', venue_id: f.venue.id,
      treatment_id: f.treatment.id, variant_id: f.variant.id, customer_id: expect.any(String), start_at: '2026-11-25T09:00:00Z', end_at: '2026-11-25T10:00:00Z',
      guest_count: 1, notes: 'Allergie', external_reference: 'hotel.ROOM-412', external_id: 'c-1', client_type: 'hotel', total_price: { amount: 75.5, currency: 'EUR' },
      payment_method: 'partner_billed', payment_status: 'paid', created_at: '2026-11-22T08:00:00Z', updated_at: '2026-11-22T08:00:00Z', cancellation: null,
    });
    const id = res.body.data.id as string;
    const room = await ctx.db.selectFrom('room_reservations').select(['room_id', 'during']).where('booking_id', '=', id).execute();
    expect(room).toHaveLength(1);
    expect(room[0]!.during).toMatch(/2026-11-25 09:00:00\+00.*2026-11-25 10:15:00\+00/);
    const therapists = await ctx.db.selectFrom('therapist_reservations').select('during').where('booking_id', '=', id).execute();
    expect(therapists).toHaveLength(1);
    expect(therapists[0]!.during).toMatch(/2026-11-25 09:00:00\+00.*2026-11-25 10:00:00\+00/);
    const offers = await ctx.db.selectFrom('booking_offers').select('therapist_id').where('booking_id', '=', id).execute();
    expect(offers.map((o) => o.therapist_id).sort()).toEqual(f.therapists.map((t) => t.id).sort());
  });

  it('replays the original booking for the same external_id: 200, Idempotent-Replayed, one row', async () => {
    const first = await post(bookingBody(f.variant.id, { start_at: '2026-11-25T12:00:00Z', external_id: 'replay-1' }));
    const again = await post(bookingBody(f.variant.id, { start_at: '2026-11-25T14:00:00Z', external_id: 'replay-1' }));
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const rows = await ctx.db.selectFrom('bookings').select('id').where('external_id', '=', 'replay-1').execute();
    expect(rows).toHaveLength(1);
  });

  it('derives client_type from external_reference, case-insensitively', async () => {
    const cases: [string | undefined, string][] = [['AGENCY.VOY-1', 'agency'], ['corporate.acme', 'corporate'], ['partner.x', 'external'], [undefined, 'external']];
    for (const [index, [reference, type]] of cases.entries()) {
      const res = await post(bookingBody(f.variant.id, { start_at: `2026-11-26T${String(8 + index * 2).padStart(2, '0')}:00:00Z`, external_reference: reference }));
      expect([res.status, res.body.data.client_type], String(reference)).toEqual([201, type]);
    }
  });

  it('finds the guest as the same customer by email, whatever its case, and increases booking_number', async () => {
    const a = await post(bookingBody(f.variant.id, { start_at: '2026-11-27T08:00:00Z', guest: { first_name: 'Ana', last_name: 'Lopez', email: 'ana.lopez@example.com' } }));
    const b = await post(bookingBody(f.variant.id, { start_at: '2026-11-27T10:00:00Z', guest: { first_name: 'Ana', last_name: 'Lopez', email: 'ANA.Lopez@example.com' } }));
    expect(b.body.data.customer_id).toBe(a.body.data.customer_id);
    expect(b.body.data.booking_number).toBeGreaterThan(a.body.data.booking_number);
  });

  it('answers 400 with the field path for every malformed field', async () => {
    const cases: [object, string][] = [
      [{ variant_id: undefined }, 'variant_id is required'],
      [{ guest: undefined }, 'guest is required'],
      [{ price_paid: undefined }, 'price_paid is required'],
      [{ start_at: '2026-11-25T09:00:00' }, 'start_at must be an ISO 8601 instant with an offset or Z'],
      [{ start_at: '2026-11-01T09:00:00Z' }, 'start_at must be in the future'],
      [{ guest_count: 0 }, 'guest_count must be from 1 to 20'],
      [{ guest_count: 21 }, 'guest_count must be from 1 to 20'],
      [{ notes: 'x'.repeat(501) }, 'notes must be at most 500 characters'],
      [{ guest: { first_name: 'A', last_name: 'B', email: 'not-an-email' } }, 'guest.email must be a valid email address'],
      [{ guest: { first_name: 'A', last_name: 'B', email: 'a@b.co', phone: '0612345678' } }, 'guest.phone must be an E.164 phone number such as +33612345678'],
      [{ price_paid: { amount: 90.001, currency: 'EUR' } }, 'price_paid.amount has more decimals than EUR allows'],
    ];
    for (const [override, message] of cases) {
      const res = await post({ ...bookingBody(f.variant.id), ...override });
      expect([res.status, res.body.error], message).toEqual([400, message]);
    }
    const email = await post(bookingBody(f.variant.id, { guest: { first_name: 'A', last_name: 'B', email: 'nope' } }));
    expect(email.body.details).toEqual([{ path: 'guest.email', message: 'guest.email must be a valid email address' }]);
  });

  it('answers 403 Forbidden for another organisation venue, 404 for an unknown venue or a variant of another venue', async () => {
    const other = await makeOrganisation(ctx.db);
    const foreign = await makeVenue(ctx.db, other.id);
    expect((await post(bookingBody(f.variant.id), foreign.id)).body.error).toBe('Forbidden');
    expect((await post(bookingBody(f.variant.id), 'nowhere')).body.error).toBe('Venue not found');
    const sibling = await makeVenue(ctx.db, f.organisation.id);
    const siblingTreatment = await makeTreatment(ctx.db, sibling.id);
    for (const variantId of [siblingTreatment.variant.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await post(bookingBody(variantId));
      expect([res.status, res.body.error]).toEqual([404, 'Variant not found']);
    }
  });

  it('answers 422 when price_paid.currency is not the venue currency', async () => {
    const res = await post(bookingBody(f.variant.id, { price_paid: { amount: 90, currency: 'USD' } }));
    expect([res.status, res.body.error]).toEqual([422, 'price_paid.currency must equal the venue currency (EUR)']);
  });

  it('answers 409 slot_unavailable off the grid, outside hours, within the lead time, and when the slot is full', async () => {
    for (const start of ['2026-11-28T09:10:00Z', '2026-11-28T07:00:00Z', '2026-11-28T17:30:00Z']) {
      const res = await post(bookingBody(f.variant.id, { start_at: start }));
      expect([res.status, res.body.error], start).toEqual([409, 'slot_unavailable']);
    }
    const lead = await makeTreatment(ctx.db, f.venue.id, { lead_time_minutes: 48 * 60 });
    expect((await post(bookingBody(lead.variant.id, { start_at: '2026-11-23T09:00:00Z' }))).body.error).toBe('slot_unavailable');
    expect((await post(bookingBody(lead.variant.id, { start_at: '2026-11-24T09:00:00Z' }))).status).toBe(201);
    const full = [await post(bookingBody(f.variant.id, { start_at: '2026-11-29T09:00:00Z' })), await post(bookingBody(f.variant.id, { start_at: '2026-11-29T09:00:00Z' }))];
    expect(full.map((r) => r.status)).toEqual([201, 201]); // two rooms, two therapists
    const third = await post(bookingBody(f.variant.id, { start_at: '2026-11-29T09:00:00Z' }));
    expect([third.status, third.body.error]).toEqual([409, 'slot_unavailable']);
    expect((await post(bookingBody(f.variant.id, { start_at: '2026-11-29T09:00:00Z', guest_count: 3 }))).body.error).toBe('slot_unavailable');
  });

  it('accepts exactly the instants the availability endpoint lists, on a 5-minute sweep of a day', async () => {
    const g = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 1, therapists: 1 });
    const { key } = await makeApiKey(ctx.db, ctx.vault, g.organisation.id);
    const listed = await request(ctx.app).get(`/v1/venues/${g.venue.id}/availability/variants/${g.variant.id}?date=2026-12-03`).set('Authorization', `Bearer ${key}`);
    const starts = new Set<string>(listed.body.data.slots.map((s: { start_at: string }) => s.start_at));
    expect(starts.size).toBe(17);
    // Refused instants first (they change nothing), then one listed slot; each listed one is bookable on its own.
    for (let minutes = 0; minutes < 24 * 60; minutes += 5) {
      const instant = new Date(Date.UTC(2026, 11, 3, 0, minutes)).toISOString().replace('.000Z', 'Z');
      if (starts.has(instant)) continue;
      const res = await post(bookingBody(g.variant.id, { start_at: instant }), g.venue.id, key);
      expect([res.status, res.body.error], instant).toEqual([409, 'slot_unavailable']);
    }
    for (const start of starts) {
      const res = await post(bookingBody(g.variant.id, { start_at: start, external_id: `sweep-${start}` }), g.venue.id, key);
      expect(res.status, start).toBe(201);
      await request(ctx.app).post(`/v1/bookings/${res.body.data.id}/cancel`).set('Authorization', `Bearer ${key}`).send({ reason: 'sweep' });
    }
  });
});
