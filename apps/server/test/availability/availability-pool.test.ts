import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { KeyVault } from '../../src/auth/api-key.js';
import { AvailabilityPool, type AvailabilityPoolOptions } from '../../src/availability/availability-pool.js';
import type { DatabaseHandle } from '../../src/db/connect.js';
import { ServiceUnavailableError } from '../../src/errors/domain-errors.js';
import { REQUEST_ID } from '../support/api.js';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey } from '../support/factories.js';
import { fixedClock } from '../support/fixed-clock.js';
import { TEST_NOW } from '../support/test-app.js';
import { openTestDatabase } from '../support/test-db.js';

const faulty = new URL('./fixtures/faulty-workers.mjs', import.meta.url);

/**
 * Apps over one database and one key vault: one computing on the event loop (as before the pool), the others
 * with a worker pool each, so their answers can be compared byte for byte.
 */
describe('availability computed on worker threads', () => {
  let handle: DatabaseHandle;
  let vault: KeyVault;
  const pools: AvailabilityPool[] = [];
  let inThread: ReturnType<typeof createApp>;
  /** Every request through its pool, even a single day. */
  let pooled: ReturnType<typeof createApp>;
  let pooledPool: AvailabilityPool;
  let wide: Awaited<ReturnType<typeof makeBookableVenue>>;
  let weekdays: Awaited<ReturnType<typeof makeBookableVenue>>;

  const appWith = (options?: Partial<AvailabilityPoolOptions>) => {
    const availabilityPool = options ? new AvailabilityPool({ threads: 1, ...options }) : undefined;
    if (availabilityPool) pools.push(availabilityPool);
    return createApp({
      db: handle.db,
      clock: fixedClock(TEST_NOW),
      vault,
      config: { rateLimitEnforced: false, publicUrl: 'http://localhost' },
      logger: pino({ level: 'silent' }),
      availabilityPool,
    });
  };
  const get = (app: ReturnType<typeof createApp>, f: typeof wide, query: string, key = f.key) =>
    request(app)
      .get(`/v1/venues/${f.venue.id}/availability/variants/${f.variant.id}?${query}`)
      .set('Authorization', `Bearer ${key}`)
      .set('X-Request-Id', REQUEST_ID);

  beforeAll(async () => {
    handle = await openTestDatabase();
    vault = new KeyVault(randomBytes(32));
    inThread = appWith();
    pooled = appWith({ minGridPoints: 0 });
    pooledPool = pools.at(-1)!;
    // Out-of-hours booking on a 15-minute grid: the whole day is listed, across both DST changes of Paris.
    wide = await makeBookableVenue(handle.db, vault, {
      rooms: 3,
      therapists: 3,
      venue: { opening_time: '07:00', closing_time: '21:00', slot_interval: 15, allow_out_of_hours_booking: true },
    });
    await handle.db.updateTable('therapist_shifts').set({ start_time: '06:00', end_time: '23:00' }).execute();
    await handle.db.updateTable('rooms').set({ capacity: 2 }).where('venue_id', '=', wide.venue.id).execute();
    weekdays = await makeBookableVenue(handle.db, vault, {
      rooms: 1,
      therapists: 2,
      venue: { days_of_week: [1, 2, 3, 4, 5] },
    });
    for (const [start, guests] of [
      ['2026-11-25T09:00:00Z', 2],
      ['2026-11-25T10:15:00Z', 1],
      ['2026-12-24T20:00:00Z', 1],
      ['2027-03-28T07:00:00Z', 2],
    ] as const) {
      const res = await request(inThread)
        .post(`/v1/venues/${wide.venue.id}/bookings`)
        .set('Authorization', `Bearer ${wide.key}`)
        .send(bookingBody(wide.variant.id, { start_at: start, guest_count: guests }));
      expect(res.status, res.text).toBe(201);
    }
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.close()));
    await handle.close();
  });

  it('answers with the very bytes and headers of the computation on the event loop, validating or not', async () => {
    // Production's workers follow RESPONSE_VALIDATION (off by default): unparsed bytes must be the same bytes.
    const unvalidated = appWith({ minGridPoints: 0, validate: false });
    const cases: [typeof wide, string][] = [
      [wide, 'from=2026-11-22&to=2027-01-23'], // 62 days of 96 grid points
      [wide, 'from=2027-03-20&to=2027-04-05&guest_count=2'],
      [wide, 'from=2027-10-25&to=2027-11-05'],
      [wide, 'date=2026-11-25'],
      [wide, 'date=2027-03-28&guest_count=2'],
      [wide, 'date=2026-11-21'], // the past: no slots
      [weekdays, 'from=2026-11-26&to=2026-12-31'],
      [weekdays, 'date=2026-11-28'], // a closed Saturday
    ];
    for (const [f, query] of cases) {
      const expected = await get(inThread, f, query);
      expect(expected.status, query).toBe(200);
      for (const actual of [await get(pooled, f, query), await get(unvalidated, f, query)]) {
        expect(actual.status, query).toBe(200);
        expect(actual.headers['content-type'], query).toBe(expected.headers['content-type']);
        expect(actual.headers['content-length'], query).toBe(expected.headers['content-length']);
        expect(actual.text, query).toBe(expected.text);
      }
    }
    expect(JSON.parse((await get(pooled, wide, 'from=2026-11-22&to=2027-01-23')).text).data.days).toHaveLength(63);
  });

  it('answers 503 with Retry-After when its worker dies, and the next request is served by a new worker', async () => {
    const pooled = appWith({ minGridPoints: 0, filename: faulty, name: 'crashOnTwentyGuests' });
    const crashed = await get(pooled, wide, 'from=2026-12-01&to=2026-12-10&guest_count=20');
    expect(crashed.status).toBe(503);
    expect(crashed.headers['retry-after']).toBe('2');
    expect(crashed.body).toEqual({ error: 'Service unavailable', request_id: REQUEST_ID });
    const next = await get(pooled, wide, 'from=2026-12-01&to=2026-12-10');
    expect(next.status).toBe(200);
    expect(next.text).toBe((await get(inThread, wide, 'from=2026-12-01&to=2026-12-10')).text);
  });

  it('answers 503 with Retry-After, at once, while its workers cannot even start', async () => {
    const pooled = appWith({
      minGridPoints: 0,
      filename: new URL('./fixtures/unloadable-worker.mjs', import.meta.url),
    });
    for (let i = 0; i < 3; i++) {
      const res = await get(pooled, wide, 'from=2026-12-01&to=2026-12-10');
      expect([res.status, res.headers['retry-after'], res.body]).toEqual([
        503,
        '2',
        { error: 'Service unavailable', request_id: REQUEST_ID },
      ]);
    }
    // Light requests never meet the pool.
    expect((await request(pooled).get('/v1/venues').set('Authorization', `Bearer ${wide.key}`)).status).toBe(200);
  });

  it("queues a key's heavy requests behind each other, not in front of another key's; beyond its line, 503", async () => {
    const pooled = appWith({ minGridPoints: 0, filename: faulty, name: 'slow', perKeyActive: 1, perKeyWaiting: 1 });
    const { key: otherKey } = await makeApiKey(handle.db, vault, wide.organisation.id);
    const query = 'from=2026-12-01&to=2026-12-03';
    const finished: string[] = [];
    const track = (who: string, key: string) =>
      get(pooled, wide, query, key).then((res) => {
        finished.push(`${who} ${res.status}`);
        return res;
      });
    // One key sends three at once: one computes (300 ms), one waits in its line, the third is refused.
    const burst = [track('a', wide.key), track('a', wide.key), track('a', wide.key)];
    const refused = await Promise.race(burst);
    expect([refused.status, refused.headers['retry-after'], refused.body]).toEqual([
      503,
      '2',
      { error: 'Service unavailable', request_id: REQUEST_ID },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Another key, arriving later, is computed before the first key's second request.
    await Promise.all([...burst, track('b', otherKey)]);
    expect(finished).toEqual(['a 503', 'a 200', 'b 200', 'a 200']);
  });

  it('does not read or compute a request whose client left while it waited for its turn', async () => {
    const gone = new AbortController();
    gone.abort();
    let loaded = false;
    const load = () => {
      loaded = true;
      return Promise.reject(new Error('not to be called'));
    };
    await expect(pooledPool.answer('some-key', load, gone.signal)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(loaded).toBe(false);
  });

  it('answers 503 once closed (the server closes it on SIGTERM, after the drain)', async () => {
    expect((await get(pooled, wide, 'from=2026-12-01&to=2026-12-10')).status).toBe(200);
    await pooledPool.close();
    const res = await get(pooled, wide, 'from=2026-12-01&to=2026-12-10');
    expect([res.status, res.headers['retry-after']]).toEqual([503, '2']);
  });
});
