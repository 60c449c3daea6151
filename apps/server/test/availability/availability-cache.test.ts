import { describe, expect, it } from 'vitest';
import { AvailabilityCache, type FreshAnswer } from '../../src/availability/availability-cache.js';
import type { NotificationHandlers } from '../../src/db/notifications.js';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { setup } from '../support/test-app.js';
import { daySlots } from '../support/typed-api.js';
import { uncachedApi } from './uncached-truth.js';

const VENUE = '00000000-0000-4000-8000-000000000001';

/** A cache over a listener the test drives: notices and the live signal by hand. */
async function cacheWith(maxBytes: number) {
  let handlers: NotificationHandlers | undefined;
  let current = true;
  const cache = await AvailabilityCache.start(
    {
      listen: (_channel, given) => {
        handlers = given;
        given.onLive(true);
        return Promise.resolve({
          isCurrent: () => current,
          sync: () => Promise.resolve(),
          close: () => Promise.resolve(),
        });
      },
    },
    { maxBytes },
  );
  return {
    cache,
    notify: (payload: string) => handlers!.onNotify(payload),
    setLive: (live: boolean) => handlers!.onLive(live),
    setCurrent: (value: boolean) => (current = value),
  };
}

/** A loader that counts its calls and answers `size` bytes. */
function loader(size = 100, freshUntilMs = Infinity) {
  const counter = {
    calls: 0,
    load: (): Promise<FreshAnswer> => {
      counter.calls++;
      return Promise.resolve({ bytes: Buffer.alloc(size, counter.calls), freshUntilMs });
    },
  };
  return counter;
}

describe('AvailabilityCache', () => {
  it('answers a second read from memory, and reads again after its venue changes or another venue is untouched', async () => {
    const { cache, notify } = await cacheWith(1024 * 1024);
    const a = loader();
    const other = loader();
    await cache.answer(VENUE, 'k', 0, a.load);
    await cache.answer(VENUE, 'k', 0, a.load);
    await cache.answer('other-venue', 'k', 0, other.load);
    expect([a.calls, other.calls]).toEqual([1, 1]);
    notify(VENUE);
    await cache.answer(VENUE, 'k', 0, a.load);
    await cache.answer('other-venue', 'k', 0, other.load);
    expect([a.calls, other.calls]).toEqual([2, 1]);
    notify('*');
    await cache.answer('other-venue', 'k', 0, other.load);
    expect(other.calls).toBe(2);
    expect(cache.stats).toMatchObject({ hits: 2, misses: 4, entries: 1 });
  });

  it('keeps an answer only until its first slot falls inside the lead time, by the request clock', async () => {
    const { cache } = await cacheWith(1024 * 1024);
    const a = loader(100, 5_000);
    await cache.answer(VENUE, 'k', 4_000, a.load);
    await cache.answer(VENUE, 'k', 4_999, a.load);
    expect(a.calls).toBe(1);
    await cache.answer(VENUE, 'k', 5_000, a.load);
    expect(a.calls).toBe(2);
  });

  it('holds at most its bound in bytes, the least recently used going first', async () => {
    const { cache, notify } = await cacheWith(10_000);
    const loads = Array.from({ length: 20 }, () => loader(1_000));
    for (const [i, l] of loads.entries()) await cache.answer(VENUE, `k${i}`, 0, l.load);
    expect(cache.stats.bytes).toBeLessThanOrEqual(10_000);
    expect(cache.stats.entries).toBeGreaterThan(0);
    expect(cache.stats.entries).toBeLessThan(20);
    // The newest is held, the oldest is not.
    await cache.answer(VENUE, 'k19', 0, loads[19]!.load);
    await cache.answer(VENUE, 'k0', 0, loads[0]!.load);
    expect([loads[19]!.calls, loads[0]!.calls]).toEqual([1, 2]);
    // A venue's notice drops whatever of it is still held; the evicted ones left nothing behind.
    notify(VENUE);
    expect(cache.stats).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('is bypassed while notices are not known to arrive, and empties itself when they resume', async () => {
    const { cache, setLive, setCurrent } = await cacheWith(1024 * 1024);
    const a = loader();
    await cache.answer(VENUE, 'k', 0, a.load);
    setCurrent(false); // the heartbeat is late: nothing held is trusted, nothing read is kept
    await cache.answer(VENUE, 'k', 0, a.load);
    await cache.answer(VENUE, 'k', 0, a.load);
    expect(a.calls).toBe(3);
    setCurrent(true);
    await cache.answer(VENUE, 'k', 0, a.load);
    expect(a.calls).toBe(3);
    setLive(false); // the listener lost: emptied, and bypassed
    setLive(true); // back: notices may have been missed meanwhile, so it starts empty
    await cache.answer(VENUE, 'k', 0, a.load);
    expect(a.calls).toBe(4);
  });

  it('does not keep an answer whose venue changed while it was computed', async () => {
    const { cache, notify } = await cacheWith(1024 * 1024);
    let calls = 0;
    const racing = async (): Promise<FreshAnswer> => {
      calls++;
      // The change commits while the answer is on its way from the database.
      if (calls === 1) notify(VENUE);
      return Promise.resolve({ bytes: Buffer.from('x'), freshUntilMs: Infinity });
    };
    await cache.answer(VENUE, 'k', 0, racing);
    await cache.answer(VENUE, 'k', 0, racing);
    await cache.answer(VENUE, 'k', 0, racing);
    expect(calls).toBe(2);
  });
});

describe('availability from the cache across a DST change', () => {
  const ctx = setup({ now: '2027-03-20T08:00:00Z' });

  it('answers every day and range of the week Paris moves its clocks exactly as the database does, before and after a booking', async () => {
    // The whole day listed (out-of-hours booking), so both day boundaries of the short day carry slots.
    const f = await makeBookableVenue(ctx.db, ctx.vault, {
      rooms: 1,
      therapists: 1,
      venue: { opening_time: '07:00', closing_time: '21:00', slot_interval: 30, allow_out_of_hours_booking: true },
    });
    await ctx.db.updateTable('therapist_shifts').set({ start_time: '00:00', end_time: '23:59' }).execute();
    const truth = uncachedApi(ctx);
    // Raw query strings and raw bytes: the cached answer must be the uncached one byte for byte.
    const queries = ['date=2027-03-27', 'date=2027-03-28', 'date=2027-03-29', 'from=2027-03-27&to=2027-03-29'];
    const agree = async () => {
      for (const query of queries) {
        for (let i = 0; i < 2; i++) {
          const [cached, fresh] = await Promise.all([
            ctx.api.availability(f.venue.id, f.variant.id, query, f.key),
            truth.availability(f.venue.id, f.variant.id, query, f.key),
          ]);
          expect(cached.status, query).toBe(200);
          expect(cached.text, query).toBe(fresh.text);
        }
      }
    };
    await agree();
    const hits = ctx.availability.stats.hits;
    expect(hits).toBeGreaterThan(0);
    // The first slot of the short day: local midnight of 28 March is 23:00Z of the 27th (UTC+1 until 02:00).
    const res = await ctx.v1.book(f.venue.id, bookingBody(f.variant.id, { start_at: '2027-03-27T23:00:00Z' }), f.key);
    expect(res.status).toBe(201);
    await agree();
    const day = await ctx.v1.availability(f.venue.id, f.variant.id, { date: '2027-03-28' }, f.key);
    const starts = daySlots(day).map((s) => s.start_at);
    expect(starts).not.toContain('2027-03-27T23:00:00Z');
    // 02:00 local does not exist that day: after 01:30 (00:30Z) comes 03:00 (01:00Z).
    expect(starts.slice(0, 4)).toEqual([
      '2027-03-28T00:00:00Z',
      '2027-03-28T00:30:00Z',
      '2027-03-28T01:00:00Z',
      '2027-03-28T01:30:00Z',
    ]);
  });
});
