import { SCOPES } from '@spa/contract';
import fc from 'fast-check';
import { error } from '../support/api.js';
import { makeApiKey, makeTreatment, makeVenue } from '../support/factories.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookingBody, invalidBookingBody, makeBookableVenue, type BookableVenue } from '../support/booking-fixture.js';
import { setup, TEST_NOW as NOW } from '../support/test-app.js';

// The answers to what the contract refuses (bad fields, no key, a malformed body): sent untyped through ctx.api,
// since the typed client (ctx.v1) cannot express them.
describe('POST /v1/venues/{venue_id}/bookings: errors', () => {
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

  it('answers 400 with one sentence naming the first bad field, and every problem in details', async () => {
    const missing = (field: string) => {
      const body = invalidBookingBody(f.variant.id, { start_at: '2026-11-29T09:00:00Z' });
      delete body[field];
      return body;
    };
    const body = (overrides: Record<string, unknown>) =>
      invalidBookingBody(f.variant.id, { start_at: '2026-11-29T09:00:00Z', ...overrides });
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
      const res = await ctx.api.book(f.venue.id, payload, f.key);
      expect([res.status, res.body], name).toEqual([400, error(message, { details: [{ path, message }] })]);
    }
    expect((await ctx.api.book(f.venue.id, body({ notes: 'x'.repeat(500) }), f.key)).status).toBe(201); // 500 is allowed
  });

  it('answers 400, never 500, for an offset beyond a day or a fraction finer than a nanosecond', async () => {
    const offset = 'start_at must have an offset from -23:59 to +23:59, or Z';
    const cases: [string, string][] = [
      ['2027-01-10T10:00:00+24:00', offset],
      ['2027-01-10T10:00:00+25:00', offset],
      ['2027-01-10T10:00:00-25:00', offset],
      ['2027-01-10T10:00:00+23:60', offset],
      ['2027-01-10T10:00:00+99:99', offset],
      ['2027-01-10T10:00:00+2400', offset],
      ['2027-01-10T10:00:00.1234567891Z', 'start_at must have at most 9 decimals of a second'],
      ['0000-01-10T10:00:00Z', 'start_at must be in year 0001 or later'],
    ];
    for (const [startAt, message] of cases) {
      const res = await ctx.api.book(f.venue.id, invalidBookingBody(f.variant.id, { start_at: startAt }), f.key);
      expect([res.status, res.body], startAt).toEqual([
        400,
        error(message, { details: [{ path: 'start_at', message }] }),
      ]);
    }
    // The edges that do exist are read: a slot that is not listed, not a malformed instant.
    for (const startAt of [
      '2027-01-10T10:00:00+23:59',
      '2027-01-10T10:00:00-23:59',
      '2027-01-10T10:00:00.123456789Z',
    ]) {
      expect((await ctx.api.book(f.venue.id, bookingBody(f.variant.id, { start_at: startAt }), f.key)).status).toBe(
        409,
      );
    }
  });

  it('lists every problem in details when several fields are wrong, the first one in error', async () => {
    const res = await ctx.api.book(
      f.venue.id,
      bookingBody(f.variant.id, {
        guest_count: 0,
        notes: 'x'.repeat(501),
        guest: { first_name: 'A', last_name: 'B', email: 'nope' },
      }),
      f.key,
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
    const none = await ctx.api.book(f.venue.id, {}, null);
    expect([none.status, none.body]).toEqual([401, error('Missing API key')]);
    const unknown = await ctx.api.book(f.venue.id, {}, `sk_live_${'0'.repeat(12)}_${'0'.repeat(64)}`);
    expect([unknown.status, unknown.body]).toEqual([401, error('Invalid or revoked API key')]);
  });

  it('answers 403 Insufficient scope with missing bookings:write for a key without it, before looking at the body', async () => {
    const { key } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, {
      scopes: SCOPES.filter((s) => s !== 'bookings:write'),
    });
    for (const body of [bookingBody(f.variant.id, { start_at: '2026-11-29T10:00:00Z' }), {}]) {
      const res = await ctx.api.book(f.venue.id, body, key);
      expect([res.status, res.body]).toEqual([403, error('Insufficient scope', { missing: ['bookings:write'] })]);
    }
  });

  it('answers 403 Forbidden for a venue UUID of another organisation, or outside a venue-restricted key', async () => {
    const other = await makeBookableVenue(ctx.db, ctx.vault);
    const res = await ctx.api.book(
      other.venue.id,
      bookingBody(other.variant.id, { start_at: '2026-11-29T10:00:00Z' }),
      f.key,
    );
    expect([res.status, res.body]).toEqual([403, error('Forbidden')]);
    const sibling = await makeVenue(ctx.db, f.organisation.id);
    const { key: restricted } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { venueId: sibling.id });
    const outside = await ctx.api.book(
      f.venue.id,
      bookingBody(f.variant.id, { start_at: '2026-11-29T10:00:00Z' }),
      restricted,
    );
    expect([outside.status, outside.body]).toEqual([403, error('Forbidden')]);
    // The shape of the body is checked before the venue.
    expect(
      (await ctx.api.book(other.venue.id, invalidBookingBody(other.variant.id, { guest_count: 0 }), f.key)).status,
    ).toBe(400);
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
      const res = await ctx.api.book(ref, bookingBody(f.variant.id, { start_at: '2026-11-29T10:00:00Z' }), f.key);
      expect([res.status, res.body], ref).toEqual([404, error('Venue not found')]);
    }
  });

  it('answers 404 Variant not found for an unknown variant, or a variant of another venue of the same organisation', async () => {
    const sibling = await makeVenue(ctx.db, f.organisation.id);
    const siblingTreatment = await makeTreatment(ctx.db, sibling.id);
    for (const variantId of [siblingTreatment.variant.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await ctx.api.book(
        f.venue.id,
        bookingBody(variantId, { start_at: '2026-11-29T10:00:00Z', price_paid: { amount: 90, currency: 'USD' } }),
        f.key,
      );
      expect([res.status, res.body], variantId).toEqual([404, error('Variant not found')]);
    }
    // By slug too.
    const bySlug = await ctx.api.book(
      f.venue.slug,
      bookingBody(siblingTreatment.variant.id, { start_at: '2026-11-29T10:00:00Z' }),
      f.key,
    );
    expect([bySlug.status, bySlug.body]).toEqual([404, error('Variant not found')]);
  });

  it('answers 422 when price_paid.currency is not the venue currency, and books nothing', async () => {
    const res = await ctx.api.book(
      f.venue.id,
      bookingBody(f.variant.id, {
        start_at: '2026-11-29T11:00:00Z',
        price_paid: { amount: 90, currency: 'USD' },
        external_id: 'usd',
      }),
      f.key,
    );
    expect([res.status, res.body]).toEqual([422, error('price_paid.currency must equal the venue currency (EUR)')]);
    expect(await ctx.db.selectFrom('bookings').select('id').where('external_id', '=', 'usd').execute()).toEqual([]);
  });

  describe('409 slot_unavailable', () => {
    let h: BookableVenue;
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
      ctx.api.book(h.venue.id, bookingBody(variantId, { start_at: start, ...overrides }), h.key);

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
        '2026-12-05T10:00:00+24:00',
        '2026-12-05T10:00:00-99:99',
        '2026-12-05T10:00:00.0000000001Z',
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
          const res = await ctx.api.book(g.venue.id, body, g.key);
          expect([200, 201, 400, 404, 409, 422], JSON.stringify(body)).toContain(res.status);
          expect(typeof (res.body.error ?? res.body.data.id)).toBe('string');
          if (res.status === 400) expect(res.body.details.length).toBeGreaterThan(0);
          if (res.status === 201) await ctx.api.cancel(res.body.data.id, g.key, { reason: 'test' });
        },
      ),
      { numRuns: 60 },
    );
  });
});
