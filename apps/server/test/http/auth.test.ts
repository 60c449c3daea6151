import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeApiKey, makeOrganisation, makeVenue } from '../support/factories.js';
import { setup } from '../support/test-app.js';
import { errorOf, expectStatus } from '../support/typed-api.js';

describe('authentication and scopes', () => {
  const ctx = setup();
  let key: string;
  let keyId: string;
  let venueSlug: string;
  beforeAll(async () => {
    const org = await makeOrganisation(ctx.db);
    venueSlug = (await makeVenue(ctx.db, org.id)).slug;
    ({ key, id: keyId } = await makeApiKey(ctx.db, ctx.vault, org.id));
  });

  /** Raw, for the header spellings and pairs the typed client cannot send (it sends `Authorization: Bearer`). */
  const get = (path = '/v1/venues') => request(ctx.app).get(path);

  it('answers 401 Missing API key with neither header', async () => {
    const res = await ctx.partner(null).venues.list();
    expectStatus(res, 401);
    expect(res.body).toEqual({ error: 'Missing API key', request_id: res.headers.get('x-request-id') });
  });

  it('answers 401 Invalid or revoked API key for a malformed key, an unknown id, a wrong secret and a revoked key', async () => {
    const org = await makeOrganisation(ctx.db);
    const revoked = await makeApiKey(ctx.db, ctx.vault, org.id, { revoked: true });
    const wrongSecret = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
    for (const candidate of [
      'nonsense',
      'sk_live_123_abc',
      `sk_live_ffffffffffff_${'a'.repeat(64)}`,
      wrongSecret,
      revoked.key,
      key.toUpperCase(),
    ]) {
      const res = await ctx.partner(candidate).venues.list();
      expect(res.status, candidate).toBe(401);
      expect(errorOf(res)).toBe('Invalid or revoked API key');
    }
  });

  it('accepts the key in Authorization: Bearer and in X-Api-Key', async () => {
    expect((await get().set('Authorization', `Bearer ${key}`)).status).toBe(200);
    expect((await get().set('Authorization', `bearer ${key}`)).status).toBe(200);
    expect((await get().set('X-Api-Key', key)).status).toBe(200);
  });

  it('prefers Bearer when both headers are sent', async () => {
    expect((await get().set('Authorization', `Bearer ${key}`).set('X-Api-Key', 'garbage')).status).toBe(200);
    expect((await get().set('Authorization', 'Bearer garbage').set('X-Api-Key', key)).status).toBe(401);
  });

  it('answers 403 Insufficient scope with the missing scope, per endpoint', async () => {
    const org = await makeOrganisation(ctx.db);
    const venue = await makeVenue(ctx.db, org.id);
    const { key: none } = await makeApiKey(ctx.db, ctx.vault, org.id, { scopes: ['bookings:write'] });
    const api = ctx.partner(none);
    const venue_id = venue.id;
    const cases = [
      ['/v1/venues', 'venues:read', () => api.venues.list()],
      [`/v1/venues/${venue.id}`, 'venues:read', () => api.venues.get({ params: { venue_id } })],
      [`/v1/venues/${venue.id}/treatments`, 'treatments:read', () => api.treatments.list({ params: { venue_id } })],
      [`/v1/venues/${venue.id}/customers`, 'customers:read', () => api.customers.list({ params: { venue_id } })],
      [
        `/v1/venues/${venue.id}/customers/${venue.id}/bookings`,
        'bookings:read',
        () => api.customers.bookings({ params: { venue_id, customer_id: venue.id } }),
      ],
      [
        `/v1/venues/${venue.id}/availability/variants/${venue.id}?date=2026-12-01`,
        'availability:read',
        () => ctx.v1.availability(venue.id, venue.id, { date: '2026-12-01' }, none),
      ],
    ] as const;
    for (const [path, scope, call] of cases) {
      const res = await call();
      expect(res.status, path).toBe(403);
      expect(res.body).toEqual({
        error: 'Insufficient scope',
        missing: [scope],
        request_id: res.headers.get('x-request-id'),
      });
    }
    // Raw: an empty body, which the contract refuses; the scope is checked before the body is read.
    const { key: reader } = await makeApiKey(ctx.db, ctx.vault, org.id, { scopes: ['venues:read'] });
    const post = await request(ctx.app)
      .post(`/v1/venues/${venue.id}/bookings`)
      .set('Authorization', `Bearer ${reader}`)
      .send({});
    expect(post.body).toMatchObject({ error: 'Insufficient scope', missing: ['bookings:write'] });
    const cancel = await request(ctx.app)
      .post(`/v1/bookings/${venue.id}/cancel`)
      .set('Authorization', `Bearer ${reader}`)
      .send({});
    expect(cancel.body).toMatchObject({ error: 'Insufficient scope', missing: ['bookings:write'] });
  });

  it('checks in the order 401, 403 scope, 400, 404', async () => {
    // Raw: malformed JSON, which the typed client cannot send.
    const malformed = () =>
      request(ctx.app).post('/v1/venues/nowhere/bookings').set('content-type', 'application/json').send('{oops');
    expect((await malformed()).status).toBe(401);
    const org = await makeOrganisation(ctx.db);
    const { key: reader } = await makeApiKey(ctx.db, ctx.vault, org.id, { scopes: ['venues:read'] });
    expect((await malformed().set('Authorization', `Bearer ${reader}`)).body.error).toBe('Insufficient scope');
    expect((await malformed().set('Authorization', `Bearer ${key}`)).body).toMatchObject({
      error: 'Request body is not valid JSON',
    });
    const badPage = await ctx.partner(key).customers.list({ params: { venue_id: 'nowhere' }, query: { page: '0' } });
    expect([badPage.status, errorOf(badPage)]).toEqual([400, 'page must be an integer of at least 1']);
    const unknown = await ctx.partner(key).customers.list({ params: { venue_id: 'nowhere' } });
    expect([unknown.status, errorOf(unknown)]).toEqual([404, 'Venue not found']);
  });

  it('never returns or logs the key', async () => {
    const res = await ctx.partner(key).venues.get({ params: { venue_id: venueSlug } });
    expect(JSON.stringify(res.body)).not.toContain(key.slice(22));
    expect(JSON.stringify(Object.fromEntries(res.headers))).not.toContain(key.slice(22));
    expect(keyId).toHaveLength(12);
  });
});
