import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { Lifecycle } from '../../src/health/lifecycle.js';
import { Metrics } from '../../src/metrics/metrics.js';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { createTestContext, type TestContext } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';
import { expectStatus } from '../support/typed-api.js';

// Raw supertest stays for /healthz, /readyz, /metrics and unknown paths: none is in the contract.

describe('health, readiness and metrics', () => {
  let ctx: TestContext;
  const lifecycle = new Lifecycle('starting');
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  beforeAll(async () => {
    ctx = await createTestContext({ lifecycle });
    f = await makeBookableVenue(ctx.db, ctx.vault);
  });
  afterAll(() => ctx.close());

  it('answers /healthz 200 and /readyz 503 while the database is being prepared, and the API 503 with Retry-After', async () => {
    expect((await request(ctx.app).get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await request(ctx.app).get('/readyz');
    expect([ready.status, ready.body]).toEqual([503, { status: 'unavailable' }]);
    const api = await ctx.partner(f.key).venues.list();
    expectStatus(api, 503);
    expect(api.headers.get('retry-after')).toBe('2');
    expect(api.body).toEqual({ error: 'Service unavailable', request_id: api.headers.get('x-request-id') });
  });

  it('answers /readyz 200 once ready, and 503 again as soon as it drains', async () => {
    lifecycle.markReady();
    const ready = await request(ctx.app).get('/readyz');
    expect([ready.status, ready.body]).toEqual([200, { status: 'ready' }]);
    const draining = new Lifecycle();
    draining.beginDraining();
    const other = await createTestContext({ lifecycle: draining });
    try {
      const res = await request(other.app).get('/readyz');
      expect([res.status, res.body]).toEqual([503, { status: 'unavailable' }]);
      expect((await request(other.app).get('/healthz')).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('counts requests by route pattern and status, and bookings created and cancelled', async () => {
    lifecycle.markReady();
    expectStatus(await ctx.partner(f.key).venues.get({ params: { venue_id: f.venue.id } }), 200);
    await request(ctx.app).get('/v1/no-such-route').set('Authorization', `Bearer ${f.key}`).expect(404);
    const created = await ctx.v1.book(f.venue.id, bookingBody(f.variant.id), f.key);
    expectStatus(created, 201);
    const cancelled = await ctx.v1.cancel(created.body.data.id, f.key, {
      cancelled_by: 'partner',
      reason: 'Guest changed plans',
    });
    expectStatus(cancelled, 200);

    const res = await request(ctx.app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.text).toContain('http_requests_total{method="GET",route="/v1/venues/:venue_id",status="200"} 1');
    expect(res.text).toContain(
      'http_request_duration_seconds_count{method="GET",route="/v1/venues/:venue_id",status="200"} 1',
    );
    expect(res.text).toContain('http_requests_total{method="GET",route="unmatched",status="404"} 1');
    expect(res.text).not.toContain(f.venue.id); // patterns, never raw URLs
    expect(res.text).toContain('bookings_created_total 1');
    expect(res.text).toContain('bookings_cancelled_total 1');
    if (testDbKind === 'postgres') expect(res.text).toMatch(/db_pool_connections\{state="total"\} \d+/);
  });

  it('serves process figures with event-loop lag, and asks for METRICS_TOKEN when one is set', async () => {
    const app = createApp({
      db: ctx.db,
      clock: ctx.clock,
      metrics: new Metrics(),
      vault: ctx.vault,
      config: {
        rateLimitEnforced: false,
        publicUrl: 'http://x',
        metricsToken: 's3cret',
      },
      logger: pino({ level: 'silent' }),
    });
    const refused = await request(app).get('/metrics');
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      error: 'Missing or invalid metrics token',
      request_id: refused.headers['x-request-id'],
    });
    expect((await request(app).get('/metrics').set('Authorization', 'Bearer wrong')).status).toBe(401);
    const scraped = await request(app).get('/metrics').set('Authorization', 'Bearer s3cret');
    expect(scraped.status).toBe(200);
    expect(scraped.text).toContain('nodejs_eventloop_lag_seconds');
  });
});
