import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import express from 'express';
import { Temporal } from 'temporal-polyfill';
import { SCOPES } from '@spa/contract';
import { KeyVault } from '../src/auth/api-key.js';
import { AvailabilityCache } from '../src/availability/availability-cache.js';
import type { DatabaseHandle } from '../src/db/connect.js';
import { startChildServer } from '../test/faults/support/child-server.js';
import { bookingBody } from '../test/support/booking-fixture.js';
import {
  EVERY_DAY,
  makeApiKey,
  makeOrganisation,
  makeRoom,
  makeTherapist,
  makeTreatment,
  makeVenue,
} from '../test/support/factories.js';
import { openBenchDatabase } from './databases.js';
import { buildGrowthVenue, SIZES } from './growth-venue.js';
import { seeded } from './scenario.js';
import { serveProductionLike } from './serve-production.js';
import { ms, percentile, verdict } from './stats.js';
import { measureThroughput, type Throughput } from './throughput.js';

const NOW = Temporal.Instant.from('2026-11-22T08:00:00Z');
const FROM = Temporal.PlainDate.from('2026-12-01');
const SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 4);
const WARM_UP_SECONDS = 2;
const LATENCY_SAMPLES = 40;
const INVALIDATIONS = Number(process.env.BENCH_SCALE_INVALIDATIONS ?? 100);
const CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The availability cache's figures side by side in one run, on PostgreSQL: an Express "hello", availability without the cache
 * (today's path) and with it warm and cold, for one day and 62 days of a medium venue (buildGrowthVenue); the
 * cache's hit rate and memory over 10, 100 and 1,000 venues read at random with a booking every 100 reads; and
 * how long a booking made by another server process takes to reach this one's cache (its notice's arrival after
 * the writer's 201).
 */
export async function benchScale(): Promise<string[]> {
  const database = await openBenchDatabase('postgres', 10);
  const lines: string[] = [];
  // Each figure is printed as it is made (a run takes minutes), and returned for the summary.
  const push = lines.push.bind(lines);
  lines.push = (...items: string[]) => {
    for (const item of items) process.stderr.write(`${item}\n`);
    return push(...items);
  };
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  lines.push(`scale on postgres (load average ${load()} at the start)`);
  const closing: { close(): Promise<void> }[] = [];
  try {
    const arrivals: { venue: string; at: number }[] = [];
    const cache = await AvailabilityCache.start(
      {
        // The reader's listener, with the arrival time of each notice noted for the invalidation figures.
        listen: (channel, handlers) =>
          database.listen(channel, {
            onNotify: (payload) => {
              arrivals.push({ venue: payload, at: performance.now() });
              handlers.onNotify(payload);
            },
            onLive: handlers.onLive,
          }),
      },
      { maxBytes: CACHE_BYTES },
    );
    const cached = await serveProductionLike(database, NOW, { availabilityCache: cache });
    closing.push(cached);
    const uncached = await serveProductionLike(database, NOW);
    closing.push(uncached);
    const hello = await serveHello();
    closing.push(hello);

    const medium = SIZES.find((s) => s.name === 'medium')!;
    const venue = await buildGrowthVenue(database.db, cached.vault, medium, { from: FROM, days: 62, now: NOW });
    // The uncached server has a vault of its own: a key of its own for the same organisation's venue.
    const uncachedKey = await keyFor(database, uncached.vault, venue.venue.id);
    const path = (query: string) => `/v1/venues/${venue.venue.id}/availability/variants/${venue.variant.id}?${query}`;
    const day = path(`date=${FROM.add({ days: 2 }).toString()}`);
    const range = path(`from=${FROM.toString()}&to=${FROM.add({ days: 61 }).toString()}`);

    // Throughput: hello, today's path, the warm cache; 50 connections each.
    const runs: Record<string, Throughput> = {};
    for (const [name, url, key] of [
      ['Express hello', `${hello.base}/hello`, venue.key],
      ['single day, no cache', uncached.base + day, uncachedKey],
      ['single day, warm cache', cached.base + day, venue.key],
    ] as const) {
      await measureThroughput(url, key, WARM_UP_SECONDS);
      runs[name] = await measureThroughput(url, key, SECONDS);
    }
    lines.push(`  throughput, 50 connections, ${SECONDS} s each after ${WARM_UP_SECONDS} s warm-up:`);
    for (const [name, run] of Object.entries(runs))
      lines.push(
        `    ${name.padEnd(24)} ${run.rps.toFixed(0).padStart(6)} req/s, ${run.cpuMicrosPerRequest.toFixed(0)} µs CPU`,
      );
    const share = (100 * runs['single day, warm cache']!.rps) / runs['Express hello']!.rps;
    lines.push(
      `    ${verdict('single-day availability, warm cache, as a share of Express hello', share, 50, '%', true)}`,
      `    (no cache: ${((100 * runs['single day, no cache']!.rps) / runs['Express hello']!.rps).toFixed(1)}% of hello)`,
    );

    // Latency, one request at a time: warm (held) and cold (the venue's entries dropped first, as a notice does).
    const latency = async (base: string, url: string, key: string, cold: boolean) => {
      const samples: number[] = [];
      for (let i = 0; i < LATENCY_SAMPLES; i++) {
        if (cold) cache.changed([venue.venue.id]);
        const started = performance.now();
        const res = await fetch(base + url, { headers: { authorization: `Bearer ${key}` } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
        samples.push(performance.now() - started);
      }
      return percentile(samples, 50);
    };
    const figures = {
      dayNone: await latency(uncached.base, day, uncachedKey, false),
      dayCold: await latency(cached.base, day, venue.key, true),
      dayWarm: await latency(cached.base, day, venue.key, false),
      rangeNone: await latency(uncached.base, range, uncachedKey, false),
      rangeCold: await latency(cached.base, range, venue.key, true),
      rangeWarm: await latency(cached.base, range, venue.key, false),
    };
    lines.push(
      `  latency p50, one request at a time (${LATENCY_SAMPLES} each; medium venue, ${medium.bookings} bookings):`,
      `    single day   no cache ${ms(figures.dayNone)}, cold ${ms(figures.dayCold)}, warm ${ms(figures.dayWarm)}`,
      `    62 days      no cache ${ms(figures.rangeNone)}, cold ${ms(figures.rangeCold)}, warm ${ms(figures.rangeWarm)}`,
      `    ${verdict('62-day availability p50, warm cache', figures.rangeWarm, 5, 'ms')}`,
    );

    // Hit rate and memory over many venues.
    lines.push(`  hit rate and memory: single days of the next 7, venues at random, a booking every 100 reads:`);
    const organisation = await makeOrganisation(database.db);
    const { key } = await makeApiKey(database.db, cached.vault, organisation.id, { scopes: SCOPES });
    const venues: { id: string; variant: string }[] = [];
    for (const count of [10, 100, 1_000]) {
      while (venues.length < count) venues.push(await smallVenue(database, organisation.id));
      cache.changed('*');
      const before = cache.stats;
      const reads = Math.min(20_000, Math.max(3_000, 3 * count * 7));
      const random = seeded(count);
      let booked = 0;
      await inParallel(reads, 20, async (i) => {
        const v = venues[Math.floor(random() * count)]!;
        const date = FROM.add({ days: Math.floor(random() * 7) });
        if (i % 100 === 99) {
          const start = date.toZonedDateTime({ timeZone: 'Europe/Paris', plainTime: '10:00' }).toInstant();
          const res = await fetch(`${cached.base}/v1/venues/${v.id}/bookings`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify(bookingBody(v.variant, { start_at: start.toString() })),
          });
          await res.arrayBuffer();
          if (res.status === 201) booked++;
        }
        const res = await fetch(
          `${cached.base}/v1/venues/${v.id}/availability/variants/${v.variant}?date=${date.toString()}`,
          {
            headers: { authorization: `Bearer ${key}` },
          },
        );
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`availability answered ${res.status}`);
      });
      const after = cache.stats;
      const hits = after.hits - before.hits;
      const misses = after.misses - before.misses;
      lines.push(
        `    ${String(count).padStart(5)} venues: ${reads} reads, ${booked} bookings; hit rate ` +
          `${((100 * hits) / (hits + misses)).toFixed(1)}% (lookups of answers and venue rows); ` +
          `${after.entries} entries, ${(after.bytes / 1024).toFixed(0)} KiB (${(after.bytes / Math.max(1, after.entries)).toFixed(0)} B each)`,
      );
    }

    // Invalidation across processes: a booking made by a second server process (dist/main.js on the same
    // database), its notice's arrival here after the writer's 201.
    const keyEncryptionKey = randomBytes(32).toString('hex');
    const writerVault = new KeyVault(Buffer.from(keyEncryptionKey, 'hex'));
    const writerKey = (await makeApiKey(database.db, writerVault, organisation.id, { scopes: SCOPES })).key;
    const writer = await startChildServer({
      DATABASE_URL: database.url!,
      KEY_ENCRYPTION_KEY: keyEncryptionKey,
      PUBLIC_URL: 'http://127.0.0.1',
      LOG_LEVEL: 'info',
    });
    try {
      // Ready once it has migrated (already done) and checked its database: 503 until then.
      while ((await fetch(`${writer.base}/readyz`).catch(() => undefined))?.status !== 200)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const target = venues[0]!;
      const delays: number[] = [];
      for (let i = 0; i < INVALIDATIONS; i++) {
        const start = FROM.add({ days: 10 + i })
          .toZonedDateTime({ timeZone: 'Europe/Paris', plainTime: '11:00' })
          .toInstant();
        const seen = arrivals.length;
        const res = await fetch(`${writer.base}/v1/venues/${target.id}/bookings`, {
          method: 'POST',
          headers: { authorization: `Bearer ${writerKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(bookingBody(target.variant, { start_at: start.toString() })),
        });
        await res.arrayBuffer();
        const answered = performance.now();
        if (res.status !== 201) throw new Error(`the writer answered ${res.status}`);
        const arrived = await arrival(arrivals, seen, target.id, 2_000);
        // A notice may arrive before the writer's answer does: it counts as visible at once.
        delays.push(Math.max(0, arrived - answered));
      }
      const p50 = percentile(delays, 50);
      const p99 = percentile(delays, 99);
      lines.push(
        `  invalidation across processes (${INVALIDATIONS} bookings by a second server process):`,
        `    the notice reached this process ${ms(p50)} p50, ${ms(p99)} p99, max ${ms(Math.max(...delays))} after the writer's 201`,
        `    ${verdict('invalidation visible in the other process, p99', p99, 50, 'ms')}`,
      );
    } finally {
      writer.kill();
      await writer.exited;
    }
    lines.push(`  load average at the end: ${load()}`);
  } finally {
    for (const c of closing.reverse()) await c.close();
    await database.close();
  }
  return lines;
}

/** The floor of an HTTP answer on this machine: Express answering a constant JSON. */
async function serveHello() {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/hello', (_req, res) => void res.json({ hello: 'world' }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function keyFor(database: DatabaseHandle, vault: KeyVault, venueId: string) {
  const { organisation_id } = await database.db
    .selectFrom('venues')
    .select('organisation_id')
    .where('id', '=', venueId)
    .executeTakeFirstOrThrow();
  return (await makeApiKey(database.db, vault, organisation_id, { scopes: SCOPES })).key;
}

/** A small venue (two rooms, two therapists on shift every day, one 60-minute treatment), as most are. */
async function smallVenue(database: DatabaseHandle, organisationId: string) {
  const venue = await makeVenue(database.db, organisationId, { opening_time: '09:00', closing_time: '18:00' });
  for (let i = 0; i < 2; i++) await makeRoom(database.db, venue.id);
  for (let i = 0; i < 2; i++)
    await makeTherapist(database.db, organisationId, {
      shifts: [{ venue_id: venue.id, days_of_week: EVERY_DAY, start_time: '09:00', end_time: '18:00' }],
    });
  const treatment = await makeTreatment(database.db, venue.id, {
    variants: [{ duration_minutes: 60, price_minor: 9000 }],
  });
  return { id: venue.id, variant: treatment.variant.id };
}

/** `count` tasks, `width` at a time. */
async function inParallel(count: number, width: number, task: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** When the first notice for `venue` after index `from` arrived; waits for it up to `deadlineMs`. */
async function arrival(arrivals: { venue: string; at: number }[], from: number, venue: string, deadlineMs: number) {
  const until = performance.now() + deadlineMs;
  for (;;) {
    const found = arrivals.slice(from).find((a) => a.venue === venue);
    if (found) return found.at;
    if (performance.now() > until) throw new Error(`no notice for ${venue} within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
