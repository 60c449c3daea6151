import fc from 'fast-check';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeApiKey, makeOrganisation, makeVenue } from '../support/factories.js';
import { createTestContext, setup } from '../support/test-app.js';
import { errorOf, expectStatus } from '../support/typed-api.js';

describe('errors are JSON, with a request id, and never a 5xx for bad input', () => {
  const ctx = setup();
  let key: string;
  let venueId: string;
  beforeAll(async () => {
    const org = await makeOrganisation(ctx.db);
    venueId = (await makeVenue(ctx.db, org.id)).id;
    ({ key } = await makeApiKey(ctx.db, ctx.vault, org.id));
  });

  // Raw in this block, beside the crash case: unknown paths, malformed and oversized bodies, hostile request ids
  // and fuzzed input, none of which the typed client can send.
  const auth = () => ({ Authorization: `Bearer ${key}` });

  it('answers an unknown route with 404 Not found', async () => {
    const res = await request(ctx.app).get('/v1/nothing-here').set(auth());
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found', request_id: res.headers['x-request-id'] });
  });

  it('answers malformed JSON with 400 and a body over 100 kB with 413', async () => {
    const bad = await request(ctx.app)
      .post(`/v1/venues/${venueId}/bookings`)
      .set(auth())
      .set('content-type', 'application/json')
      .send('{"variant_id":');
    expect([bad.status, bad.body.error]).toEqual([400, 'Request body is not valid JSON']);
    const big = await request(ctx.app)
      .post(`/v1/venues/${venueId}/bookings`)
      .set(auth())
      .send({ notes: 'x'.repeat(120_000) });
    expect(big.status).toBe(413);
    expect(big.body.error).toMatch(/100 kB/);
  });

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    const echoed = await request(ctx.app).get('/v1/venues').set(auth()).set('X-Request-Id', 'partner-trace-42');
    expect(echoed.headers['x-request-id']).toBe('partner-trace-42');
    const replaced = await request(ctx.app).get('/v1/venues').set(auth()).set('X-Request-Id', 'bad id <script>');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('turns a crash into 500 Internal server error with no stack, SQL or message', async () => {
    const broken = await createTestContext();
    const org = await makeOrganisation(broken.db);
    const { key: brokenKey } = await makeApiKey(broken.db, broken.vault, org.id);
    await broken.db.schema.dropTable('venues').cascade().execute();
    const res = await broken.partner(brokenKey).venues.list();
    await broken.close();
    expectStatus(res, 500);
    expect(res.body).toEqual({ error: 'Internal server error', request_id: res.headers.get('x-request-id') });
  });

  it('never answers 5xx to random paths, queries and bodies, and always answers JSON with error on 4xx', async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        'venues',
        'bookings',
        'customers',
        'treatments',
        'availability',
        'variants',
        venueId,
        'cancel',
        'ext:x',
        '%00',
        '..',
      ),
      fc.string({ maxLength: 12 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 6 }),
        fc.constantFrom('GET', 'POST'),
        fc.dictionary(
          fc.constantFrom('page', 'page_size', 'date', 'from', 'to', 'guest_count', 'email'),
          fc.string({ maxLength: 12 }),
        ),
        fc.jsonValue({ maxDepth: 3 }),
        async (segments, method, query, body) => {
          const path = `/v1/${segments.map(encodeURIComponent).join('/')}`;
          const req =
            method === 'GET'
              ? request(ctx.app).get(path).query(query)
              : request(ctx.app)
                  .post(path)
                  .query(query)
                  .set('content-type', 'application/json')
                  .send(JSON.stringify(body));
          const res = await req.set(auth());
          expect(res.status, `${method} ${path}`).toBeLessThan(500);
          if (res.status >= 400) expect(typeof res.body.error).toBe('string');
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('rate limits', () => {
  it('sends no X-RateLimit headers while enforcement is off', async () => {
    const ctx = await createTestContext();
    const org = await makeOrganisation(ctx.db);
    const { key } = await makeApiKey(ctx.db, ctx.vault, org.id);
    const res = await ctx.partner(key).venues.list();
    await ctx.close();
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('when enforced, answers the 61st catalogue read of a minute with 429 and Retry-After, per key', async () => {
    const ctx = await createTestContext({ rateLimitEnforced: true });
    const org = await makeOrganisation(ctx.db);
    const { key } = await makeApiKey(ctx.db, ctx.vault, org.id);
    const { key: other } = await makeApiKey(ctx.db, ctx.vault, org.id, { rateLimitPerMin: 5 });
    const get = (k: string) => ctx.partner(k).venues.list();
    let last = await get(key);
    expect(last.headers.get('x-ratelimit-limit')).toBe('60');
    expect(last.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(Number(last.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
    for (let n = 2; n <= 61; n++) last = await get(key);
    expect(last.status).toBe(429);
    expect(errorOf(last)).toBe('Rate limit exceeded');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    for (let n = 1; n <= 5; n++) expect((await get(other)).status).toBe(200);
    expect((await get(other)).status).toBe(429);
    await ctx.close();
  });
});
