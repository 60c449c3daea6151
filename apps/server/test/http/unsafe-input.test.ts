import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { setup } from '../support/test-app.js';

describe('input PostgreSQL or Express cannot take is a 400 naming the field, never a 500', () => {
  const ctx = setup({ now: '2026-11-22T08:00:00Z' });
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  beforeAll(async () => {
    f = await makeBookableVenue(ctx.db, ctx.vault);
  });

  const get = (path: string, key: string | null = f.key) => {
    const req = request(ctx.app).get(path);
    return key ? req.set('Authorization', `Bearer ${key}`) : req;
  };
  const problem = (message: string, path: string) => ({ error: message, details: [{ path, message }] });

  it('answers a path that is not valid percent-encoding with 401 without a key, then 400', async () => {
    for (const path of ['/v1/venues/%E9', '/v1/venues/%', '/v1/venues/%ZZ/treatments']) {
      const anonymous = await get(path, null);
      expect([anonymous.status, anonymous.body.error, anonymous.headers['www-authenticate']], path).toEqual([
        401,
        'Missing API key',
        'Bearer realm="partner-api"',
      ]);
      const res = await get(path);
      expect([res.status, res.body], path).toEqual([
        400,
        { ...problem('path must be valid percent-encoded UTF-8', 'path'), request_id: res.headers['x-request-id'] },
      ]);
    }
  });

  it('answers a NUL character in a path, query or body value with 400 naming it', async () => {
    const slug = await get('/v1/venues/spa%00');
    expect([slug.status, slug.body]).toEqual([
      400,
      {
        ...problem('venue_id must not contain the NUL character (\\u0000)', 'venue_id'),
        request_id: slug.headers['x-request-id'],
      },
    ]);
    const email = await get(`/v1/venues/${f.venue.id}/customers?email=a%00b`);
    expect([email.status, email.body.error]).toEqual([400, 'email must not contain the NUL character (\\u0000)']);
    const body = bookingBody(f.variant.id, { start_at: '2026-12-01T09:00:00Z' });
    const created = await request(ctx.app)
      .post(`/v1/venues/${f.venue.id}/bookings`)
      .set('Authorization', `Bearer ${f.key}`)
      .send({ ...body, guest: { ...body.guest, first_name: 'Cla\u0000ire' } });
    expect([created.status, created.body.error]).toEqual([
      400,
      'guest.first_name must not contain the NUL character (\\u0000)',
    ]);
    expect(await ctx.db.selectFrom('bookings').select('id').where('venue_id', '=', f.venue.id).execute()).toEqual([]);
  });

  it('answers an empty, repeated or oversized page with 400 saying what is wrong', async () => {
    const cases: [string, string][] = [
      ['page=', 'page must be an integer of at least 1'],
      ['page_size=', 'page_size must be an integer from 1 to 100'],
      ['page=1&page=2', 'page must be given once'],
      ['page[]=1', 'page must be given once'],
      ['page=99999999999999999999', 'page must be at most 9007199254740991'],
      ['page_size=101', 'page_size must be an integer from 1 to 100'],
    ];
    for (const [query, message] of cases) {
      const res = await get(`/v1/venues?${query}`);
      expect([res.status, res.body.error], query).toEqual([400, message]);
    }
  });
});

describe('limits a partner can hit with real data', () => {
  const ctx = setup({ now: '2026-11-22T08:00:00Z' });
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  beforeAll(async () => {
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 2, therapists: 2 });
  });

  const post = (body: object) =>
    request(ctx.app).post(`/v1/venues/${f.venue.id}/bookings`).set('Authorization', `Bearer ${f.key}`).send(body);
  const availability = (query: string) =>
    request(ctx.app)
      .get(`/v1/venues/${f.venue.id}/availability/variants/${f.variant.id}?${query}`)
      .set('Authorization', `Bearer ${f.key}`);

  it('counts text limits in characters: 500 emoji are a valid note, 501 are not', async () => {
    const ok = await post(
      bookingBody(f.variant.id, {
        start_at: '2026-12-01T09:00:00Z',
        notes: '😀'.repeat(500),
        external_reference: '😀'.repeat(200),
      }),
    );
    expect(ok.status).toBe(201);
    expect(ok.body.data.notes).toBe('😀'.repeat(500));
    const long = await post(bookingBody(f.variant.id, { start_at: '2026-12-01T10:00:00Z', notes: '😀'.repeat(501) }));
    expect([long.status, long.body.error]).toEqual([400, 'notes must be at most 500 characters']);
    const empty = await post(bookingBody(f.variant.id, { start_at: '2026-12-01T10:00:00Z', external_id: '' }));
    expect([empty.status, empty.body.error]).toEqual([400, 'external_id must not be empty']);
  });

  it('answers an amount beyond one billion with a 400 that says so', async () => {
    const res = await post(
      bookingBody(f.variant.id, { start_at: '2026-12-01T11:00:00Z', price_paid: { amount: 1e15, currency: 'EUR' } }),
    );
    expect([res.status, res.body.error]).toEqual([400, 'price_paid.amount must be at most 1000000000']);
  });

  it('answers dates at the ends of the calendar with 400, not a database error', async () => {
    for (const [query, message] of [
      ['date=0001-01-01', 'date must be from 2000-01-01 to 2999-12-31'],
      ['date=9999-12-31', 'date must be from 2000-01-01 to 2999-12-31'],
      ['from=9999-12-01&to=9999-12-31', 'from must be from 2000-01-01 to 2999-12-31'],
      ['from=2999-12-20&to=3000-01-02', 'to must be from 2000-01-01 to 2999-12-31'],
    ]) {
      const res = await availability(query!);
      expect([res.status, res.body.error], query).toEqual([400, message]);
    }
    expect((await availability('date=2999-12-31')).status).toBe(200);
    const far = await post(bookingBody(f.variant.id, { start_at: '9999-12-31T09:00:00Z' }));
    expect([far.status, far.body.error]).toEqual([400, 'start_at must be before 3000-01-01T00:00:00Z']);
  });

  it('refuses a start_at with a part below the millisecond: never a listed slot, whatever it rounds to', async () => {
    for (const start of ['2026-12-03T09:00:00.000999Z', '2026-12-03T09:00:00.0005Z', '2026-12-03T09:00:00.0000004Z']) {
      const res = await post(bookingBody(f.variant.id, { start_at: start }));
      expect([res.status, res.body.error], start).toEqual([409, 'slot_unavailable']);
    }
    const exact = await post(bookingBody(f.variant.id, { start_at: '2026-12-03T09:00:00.000Z' }));
    expect([exact.status, exact.body.data.start_at]).toEqual([201, '2026-12-03T09:00:00Z']);
    const holds = await ctx.db
      .selectFrom('therapist_reservations')
      .select('during')
      .where('booking_id', '=', exact.body.data.id)
      .execute();
    expect(holds.map((h) => h.during)).toEqual(['["2026-12-03 09:00:00+00","2026-12-03 10:00:00+00")']);
  });

  it('replays the original booking when a retry with its external_id names another variant', async () => {
    const first = await post(bookingBody(f.variant.id, { start_at: '2026-12-02T09:00:00Z', external_id: 'pms-retry' }));
    expect(first.status).toBe(201);
    const retry = await post(
      bookingBody('00000000-0000-4000-8000-000000000000', {
        start_at: '2026-12-02T09:00:00Z',
        external_id: 'pms-retry',
      }),
    );
    expect([retry.status, retry.headers['idempotent-replayed'], retry.body.data.id]).toEqual([
      200,
      'true',
      first.body.data.id,
    ]);
    const unknown = await post(
      bookingBody('00000000-0000-4000-8000-000000000000', { start_at: '2026-12-02T09:00:00Z', external_id: 'pms-new' }),
    );
    expect([unknown.status, unknown.body.error]).toEqual([404, 'Variant not found']);
  });
});
