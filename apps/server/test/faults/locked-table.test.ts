import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { withDatabase } from '../support/postgres-admin.js';
import { createTestContext, type TestContext } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';

// PGlite has one connection: no second session can hold a lock while the server works.
if (testDbKind !== 'postgres')
  console.warn('locked-table tests need a PostgreSQL server (DATABASE_URL); skipped on PGlite');

describe.skipIf(testDbKind !== 'postgres')('a table locked by another session (PostgreSQL)', () => {
  const STATEMENT_TIMEOUT_MS = 1000;
  let ctx: TestContext;
  let locker: pg.Client;
  beforeAll(async () => {
    ctx = await createTestContext({ statementTimeoutMs: STATEMENT_TIMEOUT_MS });
    locker = new pg.Client({ connectionString: withDatabase(process.env.DATABASE_URL!, ctx.handle.name!) });
    await locker.connect();
  });
  afterAll(async () => {
    await locker.end();
    await ctx.close();
  });

  it('serves GET /v1/venues while LOCK TABLE bookings holds, and answers a create 503 when its statement times out', async () => {
    const f = await makeBookableVenue(ctx.db, ctx.vault);
    const auth = { Authorization: `Bearer ${f.key}` };
    await locker.query('begin');
    await locker.query('lock table bookings in access exclusive mode');
    try {
      const started = performance.now();
      const create = request(ctx.app)
        .post(`/v1/venues/${f.venue.id}/bookings`)
        .set(auth)
        .send(bookingBody(f.variant.id));
      const venues = await request(ctx.app).get('/v1/venues').set(auth);
      expect(venues.status).toBe(200);
      const refused = await create;
      const elapsed = performance.now() - started;
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.body).toEqual({ error: 'Service unavailable', request_id: refused.headers['x-request-id'] });
      // Answered by the statement timeout, not by the lock's release (the lock is still held here).
      expect(elapsed).toBeGreaterThanOrEqual(STATEMENT_TIMEOUT_MS - 50);
    } finally {
      await locker.query('rollback');
    }
    const retried = await request(ctx.app)
      .post(`/v1/venues/${f.venue.id}/bookings`)
      .set(auth)
      .send(bookingBody(f.variant.id));
    expect(retried.status).toBe(201);
  });

  it('keeps connections for other reads while a dozen requests wait on a locked table (lock_timeout below the acquire timeout)', async () => {
    const defaults = await createTestContext();
    try {
      const f = await makeBookableVenue(defaults.db, defaults.vault);
      const auth = { Authorization: `Bearer ${f.key}` };
      const waiter = new pg.Client({
        connectionString: withDatabase(process.env.DATABASE_URL!, defaults.handle.name!),
      });
      await waiter.connect();
      await waiter.query('begin');
      await waiter.query('lock table customers in access exclusive mode');
      try {
        // More requests than the pool (10) has connections, each waiting on the lock with a connection of its own.
        const stuck = Array.from({ length: 12 }, () =>
          request(defaults.app).get(`/v1/venues/${f.venue.id}/customers`).set(auth),
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        const reads = await Promise.all(
          Array.from({ length: 5 }, () => request(defaults.app).get(`/v1/venues/${f.venue.id}/treatments`).set(auth)),
        );
        expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
        for (const res of await Promise.all(stuck)) {
          expect(res.status).toBe(503);
          expect(res.headers['retry-after']).toMatch(/^\d+$/);
        }
      } finally {
        await waiter.query('rollback');
        await waiter.end();
      }
    } finally {
      await defaults.close();
    }
  });
});
