import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Temporal } from 'temporal-polyfill';
import type { KeyVault } from '../src/auth/api-key.js';
import { AvailabilityPool } from '../src/availability/availability-pool.js';
import { defaultAvailabilityThreads } from '../src/config/config.js';
import type { Db } from '../src/db/connect.js';
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
import { type LoadResult, runLoad } from './load.js';
import { serve } from './serve.js';
import { ms, summary, verdict } from './stats.js';

const NOW = Temporal.Instant.from('2026-11-22T08:00:00Z');
const FROM = Temporal.PlainDate.from('2026-12-01');
const TO = FROM.add({ days: 62 });
/** Seconds of each measured phase (BENCH_FAIRNESS_SECONDS); the heavy load starts before and ends after it. */
const SECONDS = Number(process.env.BENCH_FAIRNESS_SECONDS ?? 8);
const THREADS = Number(process.env.AVAILABILITY_THREADS ?? defaultAvailabilityThreads(1));

/**
 * One partner's heavy availability requests against everyone else's light ones: a venue whose 62-day
 * answers are ~1 MB, 5 (then 50) clients asking for them in a loop on one worker thread, while another worker
 * thread times GET /v1/venues one request after another for a second partner. Run with the worker pool off
 * (every answer computed on the event loop) and on, side by side in one run. AVAILABILITY_THREADS sets the pool's
 * threads (default: as the server chooses for one process).
 */
export async function benchFairness(): Promise<string[]> {
  const database = await openBenchDatabase('postgres');
  const lines: string[] = [];
  try {
    const heavyOrg = await makeOrganisation(database.db);
    const lightOrg = await makeOrganisation(database.db);
    const venue = await makeLargeVenue(database.db, heavyOrg.id);
    await makeVenue(database.db, lightOrg.id);
    await makeVenue(database.db, lightOrg.id);

    let header = '';
    const results: string[][] = [];
    let after = NaN;
    for (const pooled of [false, true]) {
      const availabilityPool = pooled ? new AvailabilityPool({ threads: THREADS }) : undefined;
      const server = await serve(database.db, NOW, { availabilityPool });
      const keys = await keysFor(database.db, server.vault, heavyOrg.id, lightOrg.id);
      const heavyUrl =
        `${server.base}/v1/venues/${venue.venue.id}/availability/variants/${venue.variant.id}` +
        `?from=${FROM.toString()}&to=${TO.toString()}`;
      const venuesUrl = `${server.base}/v1/venues`;
      const warm = await runLoad({ mode: 'loop', url: heavyUrl, key: keys.heavy, clients: 1, seconds: 3 });
      await runLoad({ mode: 'loop', url: venuesUrl, key: keys.light, clients: 1, seconds: 1 });
      if (warm.statuses.get(200) !== warm.latencies.length)
        throw new Error(`62-day request answered ${JSON.stringify([...warm.statuses])}`);
      header ||= `62-day answers of ${Math.round(warm.bytes / warm.latencies.length / 1024)} KB`;

      const alone = await runLoad({ mode: 'loop', url: venuesUrl, key: keys.light, clients: 1, seconds: SECONDS });
      const five = await underLoad(heavyUrl, venuesUrl, keys, 5);
      const fifty = await underLoad(heavyUrl, venuesUrl, keys, 50);
      await server.close();
      await availabilityPool?.close();

      if (pooled) after = summary(five.light.latencies).p99;
      results.push([
        pooled
          ? `worker pool on (${THREADS} thread${THREADS > 1 ? 's' : ''}, below normal priority)`
          : 'worker pool off (every answer computed on the event loop)',
        `  GET /v1/venues alone              ${latency(alone)}`,
        `  GET /v1/venues, 5 heavy clients   ${latency(five.light)}`,
        `  62-day requests, 5 clients        ${heavy(five.heavy)}`,
        `  event loop, 5 heavy clients       ${loopLine(five.loop)}`,
        `  GET /v1/venues, 50 heavy clients  ${latency(fifty.light)}`,
        `  62-day requests, 50 clients       ${heavy(fifty.heavy)}`,
        `  event loop, 50 heavy clients      ${loopLine(fifty.loop)}`,
      ]);
    }
    lines.push(
      `fairness on postgres: ${header}, venue of 4 rooms and 4 therapists on a 15-minute grid all day`,
      ...results.flat(),
      verdict('GET /v1/venues p99 with 5 concurrent 62-day requests running', after, 50, 'ms'),
    );
  } finally {
    await database.close();
  }
  return lines;
}

/**
 * Heavy clients in a loop on one thread; GET /v1/venues timed on another, once the heavy load has started. The
 * server's event loop (this thread) is watched meanwhile: how late its timers fire shows how long it was held.
 */
async function underLoad(heavyUrl: string, venuesUrl: string, keys: { heavy: string; light: string }, clients: number) {
  const heavy = runLoad({ mode: 'loop', url: heavyUrl, key: keys.heavy, clients, seconds: SECONDS + 2 });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const light = await runLoad({ mode: 'loop', url: venuesUrl, key: keys.light, clients: 1, seconds: SECONDS });
  delay.disable();
  const loop = { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 };
  return { light, heavy: await heavy, loop };
}

const loopLine = (loop: { p99: number; max: number }) => `delay p99 ${ms(loop.p99)}  max ${ms(loop.max)}`;

const latency = (result: LoadResult) => {
  const s = summary(result.latencies);
  return `p50 ${ms(s.p50)}  p99 ${ms(s.p99)}  (${s.runs} requests)`;
};

const heavy = (result: LoadResult) => {
  const s = summary(result.okLatencies);
  const ok = result.statuses.get(200) ?? 0;
  const statuses = [...result.statuses].map(([status, count]) => `${status}: ${count}`).join(', ');
  return (
    `p50 ${ms(s.p50)}  p99 ${ms(s.p99)}  ${(ok / result.seconds).toFixed(1)} answers/s, ` +
    `${(result.bytes / result.seconds / 2 ** 20).toFixed(1)} MB/s; ${statuses}`
  );
};

/**
 * 4 rooms and 4 therapists, a 15-minute grid, out-of-hours booking allowed (the whole day is listed) and shifts
 * all day: ~93 slots a day, so a 62-day answer lists ~5,800 slots (~860 KB), as in the report.
 */
async function makeLargeVenue(db: Db, organisationId: string) {
  const venue = await makeVenue(db, organisationId, {
    opening_time: '06:00',
    closing_time: '23:00',
    slot_interval: 15,
    allow_out_of_hours_booking: true,
  });
  for (let i = 0; i < 4; i++) await makeRoom(db, venue.id);
  for (let i = 0; i < 4; i++) {
    await makeTherapist(db, organisationId, {
      shifts: [{ venue_id: venue.id, days_of_week: EVERY_DAY, start_time: '00:00', end_time: '23:59' }],
    });
  }
  const treatment = await makeTreatment(db, venue.id, { variants: [{ duration_minutes: 60, price_minor: 9000 }] });
  return { venue, variant: treatment.variant };
}

async function keysFor(db: Db, vault: KeyVault, heavyOrg: string, lightOrg: string) {
  return {
    heavy: (await makeApiKey(db, vault, heavyOrg)).key,
    light: (await makeApiKey(db, vault, lightOrg)).key,
  };
}
