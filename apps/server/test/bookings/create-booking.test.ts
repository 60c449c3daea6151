import { SCOPES } from '@spa/contract';
import fc from 'fast-check';
import { sql } from 'kysely';
import request from 'supertest';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isoFromDb } from '../../src/lib/instant.js';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey, makeRoom, makeTherapist, makeTreatment, makeVenue } from '../support/factories.js';
import { createTestContext, type TestContext } from '../support/test-app.js';

const NOW = '2026-11-22T08:00:00Z';
const RID = 'req-create-booking';
const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Venue = Awaited<ReturnType<typeof makeBookableVenue>>;

describe('POST /v1/venues/{venue_id}/bookings', () => {
  let ctx: TestContext;
  let f: Venue;
  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    f = await makeBookableVenue(ctx.db, ctx.vault, {
      rooms: 2,
      therapists: 2,
      venue: { room_turnover_buffer_minutes: 15 },
    });
  });
  beforeEach(() => ctx.clock.set(NOW));
  afterAll(() => ctx.close());

  const post = (body: object, venue: string = f.venue.id, key: string | null = f.key) => {
    const req = request(ctx.app).post(`/v1/venues/${venue}/bookings`).set('X-Request-Id', RID);
    return (key ? req.set('Authorization', `Bearer ${key}`) : req).send(body);
  };
  const cancel = (id: string, key: string) =>
    request(ctx.app).post(`/v1/bookings/${id}/cancel`).set('Authorization', `Bearer ${key}`).send({ reason: 'test' });
  const availability = (v: { venue: { id: string }; key: string }, variantId: string, query: string) =>
    request(ctx.app)
      .get(`/v1/venues/${v.venue.id}/availability/variants/${variantId}?${query}`)
      .set('Authorization', `Bearer ${v.key}`);
  const error = (text: string, extra: object = {}) => ({ error: text, ...extra, request_id: RID });
  const holds = async (table: 'room_reservations' | 'therapist_reservations', bookingId: string) => {
    const column = table === 'room_reservations' ? 'room_id' : 'therapist_id';
    const { rows } = await sql<{ id: string; lo: string; hi: string; bounds: string }>`
      select ${sql.ref(column)} as id, lower(during) as lo, upper(during) as hi,
             case when lower_inc(during) then '[' else '(' end || case when upper_inc(during) then ']' else ')' end as bounds
      from ${sql.table(table)} where booking_id = ${bookingId} order by 1`.execute(ctx.db);
    return rows.map((r) => ({ id: r.id, range: `${r.bounds[0]}${isoFromDb(r.lo)}, ${isoFromDb(r.hi)}${r.bounds[1]}` }));
  };

  describe('201 Created', () => {
    it('answers the full booking shape, status pending, echoing price_paid as total_price even when it differs from the catalogue', async () => {
      const res = await post(
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
      );
      expect(res.status).toBe(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
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
      const res = await post(body);
      expect(res.status).toBe(201);
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
      const res = await post(bookingBody(f.variant.id, { start_at: '2026-11-25T15:00:00+01:00' }));
      expect([res.status, res.body.data.start_at, res.body.data.end_at]).toEqual([
        201,
        '2026-11-25T14:00:00Z',
        '2026-11-25T15:00:00Z',
      ]);
    });

    it('holds one room for [start, end + turnover) and one therapist per guest for [start, end)', async () => {
      const res = await post(bookingBody(f.variant.id, { start_at: '2026-11-26T09:00:00Z' }));
      expect(res.status).toBe(201);
      const room = await holds('room_reservations', res.body.data.id);
      expect(room).toEqual([{ id: expect.any(String), range: '[2026-11-26T09:00:00Z, 2026-11-26T10:15:00Z)' }]);
      expect(f.rooms.map((r) => r.id)).toContain(room[0]!.id);
      const therapists = await holds('therapist_reservations', res.body.data.id);
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

      const first = await post(bookingBody(g.variant.id, { start_at: '2026-11-27T09:00:00Z' }), g.venue.id, g.key);
      expect(first.status).toBe(201);
      const qualified = g.therapists.map((t) => t.id).sort();
      const offers = async (id: string) =>
        (await ctx.db.selectFrom('booking_offers').select('therapist_id').where('booking_id', '=', id).execute())
          .map((o) => o.therapist_id)
          .sort();
      expect(await offers(first.body.data.id)).toEqual(qualified);
      const [busy] = await holds('therapist_reservations', first.body.data.id);

      const second = await post(
        bookingBody(g.variant.id, { start_at: '2026-11-27T09:00:00Z', guest_count: 2 }),
        g.venue.id,
        g.key,
      );
      expect(second.status).toBe(201);
      const free = qualified.filter((id) => id !== busy!.id);
      expect(await offers(second.body.data.id)).toEqual(free);
      expect((await holds('therapist_reservations', second.body.data.id)).map((h) => h.id)).toEqual(free);
      const rooms = [
        ...(await holds('room_reservations', first.body.data.id)),
        ...(await holds('room_reservations', second.body.data.id)),
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
        const res = await post(
          bookingBody(g.variant.id, { start_at: '2026-11-25T10:00:00Z', external_reference: reference }),
          g.venue.id,
          g.key,
        );
        expect([res.status, res.body.data.client_type, res.body.data.external_reference], String(reference)).toEqual([
          201,
          type,
          reference ?? null,
        ]);
      }
    });

    it('finds the guest as one customer by organisation and lower-cased email, and numbers bookings increasingly', async () => {
      const g = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 3, therapists: 3 });
      const guest = (email: string) => ({ first_name: 'Ana', last_name: 'Lopez', email });
      const a = await post(
        bookingBody(g.variant.id, { start_at: '2026-11-25T10:00:00Z', guest: guest('Ana.Lopez@Example.com') }),
        g.venue.id,
        g.key,
      );
      const b = await post(
        bookingBody(g.variant.id, { start_at: '2026-11-25T10:00:00Z', guest: guest('ana.lopez@example.com') }),
        g.venue.id,
        g.key,
      );
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(b.body.data.customer_id).toBe(a.body.data.customer_id);
      const rows = await ctx.db
        .selectFrom('customers')
        .select(['id', 'email'])
        .where('organisation_id', '=', g.organisation.id)
        .execute();
      expect(rows).toEqual([{ id: a.body.data.customer_id, email: 'Ana.Lopez@Example.com' }]);

      // Another organisation has its own customers, even with the same email.
      const h = await makeBookableVenue(ctx.db, ctx.vault);
      const c = await post(
        bookingBody(h.variant.id, { start_at: '2026-11-25T10:00:00Z', guest: guest('ana.lopez@example.com') }),
        h.venue.id,
        h.key,
      );
      expect(c.status).toBe(201);
      expect(c.body.data.customer_id).not.toBe(a.body.data.customer_id);

      const numbers = [a, b, c].map((r) => r.body.data.booking_number as number);
      expect(numbers).toEqual([...numbers].sort((x, y) => x - y));
      expect(new Set(numbers).size).toBe(3);
    });
  });

  describe('idempotent replay by external_id', () => {
    it('answers 200 with the original booking and Idempotent-Replayed: true, keeping one row, whatever the second body says', async () => {
      const first = await post(
        bookingBody(f.variant.id, { start_at: '2026-11-28T12:00:00Z', external_id: 'replay-1' }),
      );
      const again = await post(
        bookingBody(f.variant.id, {
          start_at: '2026-11-28T14:00:00Z',
          external_id: 'replay-1',
          price_paid: { amount: 1, currency: 'EUR' },
        }),
      );
      expect([first.status, again.status]).toEqual([201, 200]);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      const rows = await ctx.db.selectFrom('bookings').select('id').where('external_id', '=', 'replay-1').execute();
      expect(rows).toEqual([{ id: first.body.data.id }]);
      expect(await holds('room_reservations', first.body.data.id)).toHaveLength(1);
    });

    it('replays even after the slot has been taken since, and returns a cancelled original as it is now', async () => {
      const g = await makeBookableVenue(ctx.db, ctx.vault);
      const body = bookingBody(g.variant.id, { start_at: '2026-11-28T12:00:00Z', external_id: 'replay-2' });
      const first = await post(body, g.venue.id, g.key);
      expect(first.status).toBe(201);
      const again = await post(body, g.venue.id, g.key); // the only room is now held, by this very booking
      expect([again.status, again.body.data.id]).toEqual([200, first.body.data.id]);
      ctx.clock.set('2026-11-23T08:00:00Z');
      expect((await cancel(first.body.data.id, g.key)).status).toBe(200);
      const replay = await post(body, g.venue.id, g.key);
      expect([replay.status, replay.headers['idempotent-replayed'], replay.body.data.status]).toEqual([
        200,
        'true',
        'cancelled',
      ]);
    });

    it('treats the same external_id at another venue as a new booking (unique per venue)', async () => {
      const sibling = await makeVenue(ctx.db, f.organisation.id);
      await makeRoom(ctx.db, sibling.id);
      const treatment = await makeTreatment(ctx.db, sibling.id);
      await makeTherapist(ctx.db, f.organisation.id, {
        shifts: [{ venue_id: sibling.id, days_of_week: EVERY_DAY, start_time: '09:00', end_time: '18:00' }],
      });
      const here = await post(
        bookingBody(f.variant.id, { start_at: '2026-11-28T15:00:00Z', external_id: 'shared-id' }),
      );
      const there = await post(
        bookingBody(treatment.variant.id, { start_at: '2026-11-28T15:00:00Z', external_id: 'shared-id' }),
        sibling.id,
      );
      expect([here.status, there.status]).toEqual([201, 201]);
      expect(there.body.data.id).not.toBe(here.body.data.id);
    });
  });

  describe('errors', () => {
    it('answers 400 with one sentence naming the first bad field, and every problem in details', async () => {
      const missing = (field: string) => {
        const body: Record<string, unknown> = bookingBody(f.variant.id, { start_at: '2026-11-29T09:00:00Z' });
        delete body[field];
        return body;
      };
      const body = (overrides: object) => bookingBody(f.variant.id, { start_at: '2026-11-29T09:00:00Z', ...overrides });
      const guest = { first_name: 'A', last_name: 'B', email: 'a@example.com' };
      const cases: [string, object, string, string][] = [
        ['no variant_id', missing('variant_id'), 'variant_id', 'variant_id is required'],
        ['a variant_id that is not a UUID', body({ variant_id: 'v-1' }), 'variant_id', 'variant_id must be a UUID'],
        ['no guest', missing('guest'), 'guest', 'guest is required'],
        ['no price_paid', missing('price_paid'), 'price_paid', 'price_paid is required'],
        ['no start_at', missing('start_at'), 'start_at', 'start_at is required'],
        [
          'start_at without offset',
          body({ start_at: '2026-11-29T09:00:00' }),
          'start_at',
          'start_at must be an ISO 8601 instant with an offset or Z',
        ],
        [
          'start_at that is a date',
          body({ start_at: '2026-11-29' }),
          'start_at',
          'start_at must be an ISO 8601 instant with an offset or Z',
        ],
        [
          'start_at in the past',
          body({ start_at: '2026-11-21T09:00:00Z' }),
          'start_at',
          'start_at must be in the future',
        ],
        ['start_at exactly now', body({ start_at: NOW }), 'start_at', 'start_at must be in the future'],
        ['guest_count 0', body({ guest_count: 0 }), 'guest_count', 'guest_count must be from 1 to 20'],
        ['guest_count 21', body({ guest_count: 21 }), 'guest_count', 'guest_count must be from 1 to 20'],
        ['guest_count 1.5', body({ guest_count: 1.5 }), 'guest_count', 'guest_count must be an integer'],
        ['notes of 501 characters', body({ notes: 'x'.repeat(501) }), 'notes', 'notes must be at most 500 characters'],
        [
          'a bad guest.email',
          body({ guest: { ...guest, email: 'not-an-email' } }),
          'guest.email',
          'guest.email must be a valid email address',
        ],
        [
          'no guest.first_name',
          body({ guest: { last_name: 'B', email: 'a@example.com' } }),
          'guest.first_name',
          'guest.first_name is required',
        ],
        [
          'a phone not in E.164',
          body({ guest: { ...guest, phone: '0612345678' } }),
          'guest.phone',
          'guest.phone must be an E.164 phone number such as +33612345678',
        ],
        [
          'a language not ISO 639-1',
          body({ guest: { ...guest, language: 'french' } }),
          'guest.language',
          'guest.language must be an ISO 639-1 code such as fr',
        ],
        [
          'an amount with 3 decimals in EUR',
          body({ price_paid: { amount: 90.001, currency: 'EUR' } }),
          'price_paid.amount',
          'price_paid.amount has more decimals than EUR allows',
        ],
        [
          'an amount with decimals in JPY',
          body({ price_paid: { amount: 90.5, currency: 'JPY' } }),
          'price_paid.amount',
          'price_paid.amount has more decimals than JPY allows',
        ],
        [
          'a negative amount',
          body({ price_paid: { amount: -1, currency: 'EUR' } }),
          'price_paid.amount',
          'price_paid.amount must not be negative',
        ],
        [
          'a currency that is not ISO 4217',
          body({ price_paid: { amount: 90, currency: 'euro' } }),
          'price_paid.currency',
          'price_paid.currency must be an ISO 4217 code such as EUR',
        ],
      ];
      for (const [name, payload, path, message] of cases) {
        const res = await post(payload);
        expect([res.status, res.body], name).toEqual([400, error(message, { details: [{ path, message }] })]);
      }
      expect((await post(body({ notes: 'x'.repeat(500) }))).status).toBe(201); // 500 is allowed
    });

    it('lists every problem in details when several fields are wrong, the first one in error', async () => {
      const res = await post(
        bookingBody(f.variant.id, {
          guest_count: 0,
          notes: 'x'.repeat(501),
          guest: { first_name: 'A', last_name: 'B', email: 'nope' },
        }),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        error('guest_count must be from 1 to 20', {
          details: [
            { path: 'guest_count', message: 'guest_count must be from 1 to 20' },
            { path: 'guest.email', message: 'guest.email must be a valid email address' },
            { path: 'notes', message: 'notes must be at most 500 characters' },
          ],
        }),
      );
    });

    it('answers 401 without a key or with an unknown one, before looking at the body', async () => {
      const none = await post({}, f.venue.id, null);
      expect([none.status, none.body]).toEqual([401, error('Missing API key')]);
      const unknown = await post({}, f.venue.id, `sk_live_${'0'.repeat(12)}_${'0'.repeat(64)}`);
      expect([unknown.status, unknown.body]).toEqual([401, error('Invalid or revoked API key')]);
    });

    it('answers 403 Insufficient scope with missing bookings:write for a key without it, before looking at the body', async () => {
      const { key } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, {
        scopes: SCOPES.filter((s) => s !== 'bookings:write'),
      });
      for (const body of [bookingBody(f.variant.id, { start_at: '2026-11-29T10:00:00Z' }), {}]) {
        const res = await post(body, f.venue.id, key);
        expect([res.status, res.body]).toEqual([403, error('Insufficient scope', { missing: ['bookings:write'] })]);
      }
    });

    it('answers 403 Forbidden for a venue UUID of another organisation, or outside a venue-restricted key', async () => {
      const other = await makeBookableVenue(ctx.db, ctx.vault);
      const res = await post(bookingBody(other.variant.id, { start_at: '2026-11-29T10:00:00Z' }), other.venue.id);
      expect([res.status, res.body]).toEqual([403, error('Forbidden')]);
      const sibling = await makeVenue(ctx.db, f.organisation.id);
      const { key: restricted } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { venueId: sibling.id });
      const outside = await post(
        bookingBody(f.variant.id, { start_at: '2026-11-29T10:00:00Z' }),
        f.venue.id,
        restricted,
      );
      expect([outside.status, outside.body]).toEqual([403, error('Forbidden')]);
      // The shape of the body is checked before the venue.
      expect((await post({ ...bookingBody(other.variant.id), guest_count: 0 }, other.venue.id)).status).toBe(400);
      expect(await ctx.db.selectFrom('bookings').select('id').where('venue_id', '=', other.venue.id).execute()).toEqual(
        [],
      );
    });

    it("answers 404 Venue not found for an unknown slug or UUID, another organisation's slug, and an inactive venue", async () => {
      const other = await makeBookableVenue(ctx.db, ctx.vault);
      const inactive = await makeVenue(ctx.db, f.organisation.id, { status: 'inactive' });
      for (const ref of [
        'no-such-spa',
        '00000000-0000-4000-8000-000000000000',
        other.venue.slug,
        inactive.id,
        inactive.slug,
      ]) {
        const res = await post(bookingBody(f.variant.id, { start_at: '2026-11-29T10:00:00Z' }), ref);
        expect([res.status, res.body], ref).toEqual([404, error('Venue not found')]);
      }
    });

    it('answers 404 Variant not found for an unknown variant, or a variant of another venue of the same organisation', async () => {
      const sibling = await makeVenue(ctx.db, f.organisation.id);
      const siblingTreatment = await makeTreatment(ctx.db, sibling.id);
      for (const variantId of [siblingTreatment.variant.id, '00000000-0000-4000-8000-000000000000']) {
        const res = await post(
          bookingBody(variantId, { start_at: '2026-11-29T10:00:00Z', price_paid: { amount: 90, currency: 'USD' } }),
        );
        expect([res.status, res.body], variantId).toEqual([404, error('Variant not found')]);
      }
      // By slug too.
      const bySlug = await post(
        bookingBody(siblingTreatment.variant.id, { start_at: '2026-11-29T10:00:00Z' }),
        f.venue.slug,
      );
      expect([bySlug.status, bySlug.body]).toEqual([404, error('Variant not found')]);
    });

    it('answers 422 when price_paid.currency is not the venue currency, and books nothing', async () => {
      const res = await post(
        bookingBody(f.variant.id, {
          start_at: '2026-11-29T11:00:00Z',
          price_paid: { amount: 90, currency: 'USD' },
          external_id: 'usd',
        }),
      );
      expect([res.status, res.body]).toEqual([422, error('price_paid.currency must equal the venue currency (EUR)')]);
      expect(await ctx.db.selectFrom('bookings').select('id').where('external_id', '=', 'usd').execute()).toEqual([]);
    });

    describe('409 slot_unavailable', () => {
      let h: Venue;
      let lead: Awaited<ReturnType<typeof makeTreatment>>;
      beforeAll(async () => {
        // Paris (UTC+1 in winter), open 09:00–18:00 local except Mondays, 15-minute turnover, lunch closed 13:00–14:00.
        h = await makeBookableVenue(ctx.db, ctx.vault, {
          venue: { room_turnover_buffer_minutes: 15, days_of_week: [0, 2, 3, 4, 5, 6] },
        });
        await ctx.db
          .insertInto('venue_blocks')
          .values([
            {
              id: crypto.randomUUID(),
              venue_id: h.venue.id,
              daily: true,
              start_time: '13:00',
              end_time: '14:00',
              reason: 'lunch',
            },
            {
              id: crypto.randomUUID(),
              venue_id: h.venue.id,
              daily: false,
              start_at: '2026-12-02T14:00:00Z',
              end_at: '2026-12-02T15:00:00Z',
              reason: 'maintenance',
            },
          ])
          .execute();
        lead = await makeTreatment(ctx.db, h.venue.id, {
          lead_time_minutes: 48 * 60,
          variants: [{ duration_minutes: 60, price_minor: 9000 }],
        });
      });
      const book = (start: string, overrides: object = {}, variantId = h.variant.id) =>
        post(bookingBody(variantId, { start_at: start, ...overrides }), h.venue.id, h.key);

      it('refuses instants the grid, the hours, the schedule, the blocks or the lead time rule out', async () => {
        ctx.clock.set('2026-11-22T08:30:00Z'); // the lead time of 48 h ends at 09:30 local on the 24th
        const cases: [string, string, string?][] = [
          ['off the 30-minute grid', '2026-12-01T09:10:00Z'],
          ['a second off the grid', '2026-12-01T09:00:01Z'],
          ['before opening (08:00 local)', '2026-12-01T07:00:00Z'],
          ['ending after closing (17:30–18:30 local)', '2026-12-01T16:30:00Z'],
          ['on a closed weekday (Monday)', '2026-11-30T10:00:00Z'],
          ['overlapping the daily block (12:30–13:30 local)', '2026-12-01T11:30:00Z'],
          ['inside the daily block (13:00 local)', '2026-12-01T12:00:00Z'],
          ['overlapping a dated block', '2026-12-02T13:30:00Z'],
          ['a day inside the 48-hour lead time', '2026-11-23T09:00:00Z', lead.variant.id],
          ['one grid step inside the lead time', '2026-11-24T08:00:00Z', lead.variant.id],
        ];
        for (const [name, start, variantId] of cases) {
          const res = await book(start, {}, variantId);
          expect([res.status, res.body], name).toEqual([409, error('slot_unavailable')]);
        }
        // The neighbours of those refusals are bookable: the edges are exact.
        for (const [start, variantId] of [
          ['2026-12-01T11:00:00Z', h.variant.id], // 12:00–13:00 local, ends as the block starts
          ['2026-12-01T13:00:00Z', h.variant.id], // 14:00 local, as the block ends
          ['2026-12-01T16:00:00Z', h.variant.id], // 17:00–18:00 local, ends at closing
          ['2026-12-02T15:00:00Z', h.variant.id], // as the dated block ends
          ['2026-11-24T08:30:00Z', lead.variant.id], // exactly 48 h ahead
        ] as const) {
          const res = await book(start, {}, variantId);
          expect(res.status, start).toBe(201);
        }
        expect(
          await ctx.db.selectFrom('bookings').select('id').where('venue_id', '=', h.venue.id).execute(),
        ).toHaveLength(5);
      });

      it('refuses a slot already taken, the turnover after it, and more guests than any room holds', async () => {
        expect((await book('2026-12-03T09:00:00Z')).status).toBe(201);
        for (const [name, start, overrides] of [
          ['the same slot', '2026-12-03T09:00:00Z', {}],
          ['an overlapping slot', '2026-12-03T08:30:00Z', {}],
          ['the next slot, inside the 15-minute turnover of the room', '2026-12-03T10:00:00Z', {}],
          ['two guests in a room for one', '2026-12-03T12:00:00Z', { guest_count: 2 }],
        ] as const) {
          const res = await book(start, overrides);
          expect([res.status, res.body], name).toEqual([409, error('slot_unavailable')]);
        }
        expect((await book('2026-12-03T10:30:00Z')).status).toBe(201); // after the turnover
      });
    });

    it('never answers 5xx, whatever the body (fast-check)', async () => {
      const g = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 3, therapists: 3 });
      const valid = bookingBody(g.variant.id, { start_at: '2026-12-05T10:00:00Z' });
      const anyValue = fc.oneof(
        fc.constant(undefined),
        fc.constant(null),
        fc.string({ maxLength: 30 }),
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constantFrom(
          '2026-12-05T10:00:00Z',
          '2026-12-05T10:00:00+01:00',
          '2026-02-30T10:00:00Z',
          '9999-12-31T23:59:59Z',
          '0000-01-01T00:00:00Z',
          'ext:x',
          'EUR',
          'JPY',
          g.variant.id,
          '00000000-0000-0000-0000-000000000000',
        ),
        fc.array(fc.integer(), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
      );
      const paths = [
        'variant_id',
        'start_at',
        'guest_count',
        'guest',
        'guest.first_name',
        'guest.email',
        'guest.phone',
        'guest.language',
        'notes',
        'external_reference',
        'external_id',
        'price_paid',
        'price_paid.amount',
        'price_paid.currency',
        'extra',
      ];
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.constantFrom(...paths), anyValue), { minLength: 1, maxLength: 4 }),
          async (changes) => {
            const body = structuredClone(valid) as Record<string, unknown>;
            for (const [path, value] of changes) {
              const [head, tail] = path.split('.') as [string, string?];
              if (tail && body[head] && typeof body[head] === 'object')
                (body[head] as Record<string, unknown>)[tail] = value;
              else if (!tail) body[head] = value;
            }
            const res = await post(body, g.venue.id, g.key);
            expect([200, 201, 400, 404, 409, 422], JSON.stringify(body)).toContain(res.status);
            expect(typeof (res.body.error ?? res.body.data.id)).toBe('string');
            if (res.status === 400) expect(res.body.details.length).toBeGreaterThan(0);
            if (res.status === 201) await cancel(res.body.data.id, g.key);
          },
        ),
        { numRuns: 60 },
      );
    });
  });

  describe('agreement with the availability endpoint (5-minute sweep of a whole day)', () => {
    /**
     * Every instant of the venue-local day on a 5-minute grid: the listed ones are booked (then cancelled, which
     * restores the day), every other one is refused (400 if not in the future, else 409). The listing is the same after.
     */
    async function sweep(v: Venue, date: string, guestCount: number) {
      const listed = await availability(v, v.variant.id, `date=${date}&guest_count=${guestCount}`);
      expect(listed.status).toBe(200);
      const starts = new Set<string>(listed.body.data.slots.map((s: { start_at: string }) => s.start_at));
      const zone = v.venue.timezone ?? 'UTC';
      const dayStart = Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: zone }).toInstant();
      const dayEnd = Temporal.PlainDate.from(date).add({ days: 1 }).toZonedDateTime({ timeZone: zone }).toInstant();
      const now = ctx.clock.now();
      let refused = 0;
      for (let t = dayStart; Temporal.Instant.compare(t, dayEnd) < 0; t = t.add({ minutes: 5 })) {
        const instant = t.toString();
        if (starts.has(instant)) continue;
        const res = await post(
          bookingBody(v.variant.id, { start_at: instant, guest_count: guestCount }),
          v.venue.id,
          v.key,
        );
        const expected =
          Temporal.Instant.compare(t, now) <= 0 ? [400, 'start_at must be in the future'] : [409, 'slot_unavailable'];
        expect([res.status, res.body.error], instant).toEqual(expected);
        refused++;
      }
      for (const start of starts) {
        const res = await post(
          bookingBody(v.variant.id, { start_at: start, guest_count: guestCount }),
          v.venue.id,
          v.key,
        );
        expect([res.status, res.body.data?.start_at], start).toEqual([201, start]);
        expect((await cancel(res.body.data.id, v.key)).status).toBe(200);
      }
      expect((await availability(v, v.variant.id, `date=${date}&guest_count=${guestCount}`)).body).toEqual(listed.body);
      expect(refused + starts.size).toBe(dayEnd.since(dayStart).total({ unit: 'minute' }) / 5);
      return [...starts];
    }

    /**
     * Paris, 09:00–18:00, 15-minute turnover, 30-minute inter-venue buffer, lunch block 13:00–13:30, lead time 90 min.
     * Rooms of capacity 1 and 2; T1, T2 on shift all day, T3 from 12:00 and also working at venue O.
     * Booked: 11:00 local for two guests (room 2, T1 and T2), 16:00 local for one (room 1), T3 at O 15:00–16:00.
     * The clock is 09:10 local on the day, so the morning is past or inside the lead time.
     */
    let s: Venue;
    beforeAll(async () => {
      ctx.clock.set('2026-12-03T08:10:00Z');
      s = await makeBookableVenue(ctx.db, ctx.vault, {
        rooms: 0,
        therapists: 2,
        venue: { room_turnover_buffer_minutes: 15, inter_venue_buffer_minutes: 30 },
      });
      await makeRoom(ctx.db, s.venue.id, { capacity: 1 });
      await makeRoom(ctx.db, s.venue.id, { capacity: 2 });
      await ctx.db.updateTable('treatments').set({ lead_time_minutes: 90 }).where('id', '=', s.treatment.id).execute();
      await ctx.db
        .insertInto('venue_blocks')
        .values({
          id: crypto.randomUUID(),
          venue_id: s.venue.id,
          daily: true,
          start_time: '13:00',
          end_time: '13:30',
          reason: 'lunch',
        })
        .execute();
      const o = await makeVenue(ctx.db, s.organisation.id);
      await makeRoom(ctx.db, o.id);
      const oTreatment = await makeTreatment(ctx.db, o.id, { variants: [{ duration_minutes: 60, price_minor: 9000 }] });
      await makeTherapist(ctx.db, s.organisation.id, {
        shifts: [
          { venue_id: s.venue.id, days_of_week: EVERY_DAY, start_time: '12:00', end_time: '18:00' },
          { venue_id: o.id, days_of_week: EVERY_DAY, start_time: '09:00', end_time: '18:00' },
        ],
      });
      // T3 at O first, so that the one-guest booking at 16:00 local cannot pick T3.
      const booked = [
        await post(bookingBody(oTreatment.variant.id, { start_at: '2026-12-03T14:00:00Z' }), o.id, s.key),
        await post(bookingBody(s.variant.id, { start_at: '2026-12-03T10:00:00Z', guest_count: 2 }), s.venue.id, s.key),
        await post(bookingBody(s.variant.id, { start_at: '2026-12-03T15:00:00Z' }), s.venue.id, s.key),
      ];
      expect(booked.map((r) => r.status)).toEqual([201, 201, 201]);
    });

    it('books exactly the listed instants for one guest on a day with bookings, blocks, buffers and a lead time', async () => {
      ctx.clock.set('2026-12-03T08:10:00Z');
      const starts = await sweep(s, '2026-12-03', 1);
      // 12:00, then 13:30–17:00 local; 11:00 and 11:30 have no therapist, 12:30 and 13:00 meet the block.
      expect(starts).toEqual(
        ['11:00', '12:30', '13:00', '13:30', '14:00', '14:30', '15:00', '15:30', '16:00'].map(
          (t) => `2026-12-03T${t}:00Z`,
        ),
      );
    });

    it('books exactly the listed instants for two guests on the same day', async () => {
      ctx.clock.set('2026-12-03T08:10:00Z');
      const starts = await sweep(s, '2026-12-03', 2);
      // Two guests need the room for two and two free therapists: 15:30 and 16:00 local have one therapist left.
      expect(starts).toEqual(['12:30', '13:00', '13:30', '14:00', '15:30', '16:00'].map((t) => `2026-12-03T${t}:00Z`));
    });

    it('books exactly the listed instants on a 25-hour DST day with out-of-hours booking, the repeated hour taken once', async () => {
      ctx.clock.set('2026-10-20T08:00:00Z');
      const d = await makeBookableVenue(ctx.db, ctx.vault, {
        therapists: 0,
        venue: { allow_out_of_hours_booking: true },
      });
      await makeTherapist(ctx.db, d.organisation.id, {
        shifts: [{ venue_id: d.venue.id, days_of_week: EVERY_DAY, start_time: '00:00', end_time: '23:59' }],
      });
      expect(
        (await post(bookingBody(d.variant.id, { start_at: '2026-10-25T11:00:00Z' }), d.venue.id, d.key)).status,
      ).toBe(201); // 12:00 local
      const listed = (await availability(d, d.variant.id, 'date=2026-10-25')).body.data.slots as {
        start_at: string;
        local_time: string;
        out_of_hours: boolean;
      }[];
      const starts = await sweep(d, '2026-10-25', 1);
      // 00:00–22:30 local every 30 minutes (46), less 11:30, 12:00 and 12:30 around the booking.
      expect(starts).toHaveLength(43);
      expect(starts).toContain('2026-10-25T00:30:00Z'); // 02:30 local, first occurrence (UTC+2)
      expect(starts).not.toContain('2026-10-25T01:30:00Z'); // 02:30 local again (UTC+1): taken once
      expect(listed.filter((slot) => !slot.out_of_hours).map((slot) => slot.local_time)).toEqual([
        '09:00',
        '09:30',
        '10:00',
        '10:30',
        '11:00',
        '13:00',
        '13:30',
        '14:00',
        '14:30',
        '15:00',
        '15:30',
        '16:00',
        '16:30',
        '17:00',
      ]);
    });
  });
});
