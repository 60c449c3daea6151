import fc from 'fast-check';
import { pino } from 'pino';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { ApiKeyCache } from '../../src/auth/api-key-cache.js';
import { AvailabilityCache } from '../../src/availability/availability-cache.js';
import { acceptBooking } from '../../src/bookings/therapist-workflow.js';
import { connect, type DatabaseHandle } from '../../src/db/connect.js';
import { type Api, apiOf } from '../support/api.js';
import { bookingBody, type BookableVenue, makeBookableVenue } from '../support/booking-fixture.js';
import { TcpProxy } from '../faults/support/tcp-proxy.js';
import { withDatabase } from '../support/postgres-admin.js';
import { createTestContext, type TestContext } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';
import { uncachedApi } from './uncached-truth.js';

/** One server process as the fleet runs it: its own pool, its own listener, its own caches. */
interface Instance {
  db: DatabaseHandle['db'];
  api: Api;
  cache: AvailabilityCache;
}

const DATE = '2026-11-25';
/** Paris is UTC+1 in November: 09:00 to 11:00 local, on the venue's 30-minute grid, 60-minute treatments. */
const STARTS = ['08:00', '08:30', '09:00', '09:30', '10:00'].map((t) => `${DATE}T${t}:00Z`);

type Action =
  | { kind: 'create'; at: number; start: number }
  | { kind: 'cancel'; at: number; which: number }
  | { kind: 'accept'; at: number; which: number; therapist: number }
  | { kind: 'reschedule'; at: number; which: number; start: number }
  | { kind: 'read'; at: number };

/**
 * The cache's property: random interleavings of creates, reschedules, cancels, acceptances and reads over two app
 * instances (on PostgreSQL: separate pools and listeners on one database, as two processes are; on PGlite: one
 * instance, which is what an embedded database serves) never list anything but what the database says at the time
 * of the read (so never a slot it would refuse), whichever instance committed last. That is stronger than "once the
 * writer's notice has reached the reader": a hit first waits for the notices of every commit before the
 * request (availability-cache.ts). "What the database says" is the same request on an app without a cache, over
 * the same database at the same frozen clock. A read on the writer right after its commit is among the cases.
 */
describe('the availability cache agrees with the database', () => {
  let ctx: TestContext;
  let venue: BookableVenue;
  const instances: Instance[] = [];
  let truth: Api;
  const extra: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    venue = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 1, therapists: 2 });
    instances.push({ db: ctx.db, api: ctx.api, cache: ctx.availability });
    if (testDbKind === 'postgres') {
      // A second process's worth: its own connections to the same database, its listener far away (notices
      // arrive 25 ms after the commit), so reading before they arrive is a real case, not a rare one.
      const url = withDatabase(process.env.DATABASE_URL!, ctx.handle.name!);
      const { hostname, port } = new URL(url);
      const far = await TcpProxy.start({ host: hostname, port: Number(port) }, { downstreamDelayMs: 25 });
      const other = await connect({ databaseUrl: url, listenUrl: far.urlFor(url) });
      const apiKeys = await ApiKeyCache.start(other);
      const cache = await AvailabilityCache.start(other, { maxBytes: 8 * 1024 * 1024 });
      extra.push(apiKeys, cache, other, far);
      const app = createApp({
        db: other.db,
        apiKeys,
        availabilityCache: cache,
        clock: ctx.clock,
        vault: ctx.vault,
        config: { rateLimitEnforced: false, publicUrl: 'http://localhost' },
        logger: pino({ level: 'silent' }),
      });
      instances.push({ db: other.db, api: apiOf(app), cache });
    }
    truth = uncachedApi(ctx);
  });

  afterAll(async () => {
    for (const closing of extra) await closing.close();
    await ctx.close();
  });

  const listing = async (api: Api) => {
    const res = await api.availability(venue.venue.id, venue.variant.id, `date=${DATE}`, venue.key);
    expect(res.status).toBe(200);
    return res.body as { data: { slots: { start_at: string; available_capacity: number }[] } };
  };

  it('lists what the database would accept, in every interleaving', async () => {
    const n = instances.length;
    const action = fc.oneof(
      fc.record({ kind: fc.constant('create' as const), at: fc.nat(n - 1), start: fc.nat(STARTS.length - 1) }),
      fc.record({ kind: fc.constant('cancel' as const), at: fc.nat(n - 1), which: fc.nat(20) }),
      fc.record({ kind: fc.constant('accept' as const), at: fc.nat(n - 1), which: fc.nat(20), therapist: fc.nat(1) }),
      fc.record({
        kind: fc.constant('reschedule' as const),
        at: fc.nat(n - 1),
        which: fc.nat(20),
        start: fc.nat(STARTS.length - 1),
      }),
      fc.record({ kind: fc.constant('read' as const), at: fc.nat(n - 1) }),
    );
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 4, maxLength: 14 }), async (actions: Action[]) => {
        // A fresh day for each run; the deletes' notices are awaited everywhere before the run starts.
        await ctx.db.deleteFrom('bookings').execute();
        for (const instance of instances) await instance.cache.settle([]);
        const booked: string[] = [];

        for (const step of actions) {
          const instance = instances[step.at]!;
          if (step.kind === 'create') {
            const res = await instance.api.book(
              venue.venue.id,
              bookingBody(venue.variant.id, { start_at: STARTS[step.start] }),
              venue.key,
            );
            // The database decides: a stale list costs a 409, never a double booking.
            expect([201, 409]).toContain(res.status);
            if (res.status === 201) booked.push((res.body as { data: { id: string } }).data.id);
          } else if (step.kind === 'cancel' && booked.length > 0) {
            const res = await instance.api.cancel(booked[step.which % booked.length]!, venue.key);
            // A booking already cancelled is refused (422), one past its cancellation window too.
            expect([200, 409, 422]).toContain(res.status);
          } else if (step.kind === 'reschedule' && booked.length > 0) {
            const id = booked[step.which % booked.length]!;
            const res = await instance.api.post(
              `/v1/bookings/${id}/reschedule`,
              { start_at: STARTS[step.start] },
              venue.key,
            );
            // Moved (or already there), the new slot taken, or the booking cancelled meanwhile.
            expect([200, 409, 422]).toContain(res.status);
          } else if (step.kind === 'accept' && booked.length > 0) {
            // What the dashboard's accept route does: the workflow's commit, then the writer settles its cache.
            const therapistId = venue.therapists[step.therapist % venue.therapists.length]!.id;
            const now = Temporal.Instant.from('2026-11-22T08:00:00Z');
            await acceptBooking(instance.db, {
              bookingId: booked[step.which % booked.length]!,
              therapistId,
              now,
            }).catch(() => undefined);
            await instance.cache.settle([]);
          } else if (step.kind === 'read') {
            // No waiting for notices here: a read waits by itself for those of every commit before it.
            expect(await listing(instance.api)).toEqual(await listing(truth));
            checked++;
          }
        }
        // Whatever the sequence, each instance ends listing what a computation from scratch lists.
        for (const instance of instances) expect(await listing(instance.api)).toEqual(await listing(truth));
        checked += instances.length;
      }),
      { numRuns: 20 },
    );
    // The property held over reads that were compared, not over none, and some were answered from memory.
    expect(checked).toBeGreaterThan(20);
    expect(instances.map((i) => i.cache.stats.hits).reduce((a, b) => a + b)).toBeGreaterThan(0);
  });
});
