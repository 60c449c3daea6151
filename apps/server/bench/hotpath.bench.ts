import { isDeepStrictEqual } from 'node:util';
import { Temporal } from 'temporal-polyfill';
import { makeBooking, makeVenue } from '../test/support/factories.js';
import { serveBaseline } from './baseline-server.js';
import { openBenchDatabase } from './databases.js';
import { buildScenario } from './scenario.js';
import { serveProductionLike } from './serve-production.js';
import { verdict } from './stats.js';
import { measureThroughput, type Throughput } from './throughput.js';

const NOW = Temporal.Instant.from('2026-11-22T08:00:00Z');
const FROM = Temporal.PlainDate.from('2026-12-01');
/** Pool of both servers: the production default (DB_POOL_SIZE). */
const POOL_SIZE = 10;
/** Seconds of each measured run; two runs per server and endpoint, alternating, after a warm-up of each. */
const SECONDS = Number(process.env.BENCH_HOTPATH_SECONDS ?? 4);
const WARM_UP_SECONDS = 2;
/** Short alternating runs: other work on a shared machine comes and goes, and then touches both servers alike. */
const ROUNDS = 3;
const TARGET = 80;

/**
 * Cost per request: the real app, served as in production, against a bare Express + pg server doing the same
 * work (baseline-server.ts), one after the other on the same fresh PostgreSQL database and data, each under
 * 50 keep-alive connections from a worker thread. The ratio says how much of the same-work floor the app keeps.
 */
export async function benchHotPath() {
  const database = await openBenchDatabase('postgres', POOL_SIZE);
  const lines: string[] = [];
  try {
    const real = await serveProductionLike(database, NOW);
    const baseline = await serveBaseline({ databaseUrl: database.url!, db: database.db, vault: real.vault, now: NOW });
    try {
      const scenario = await buildScenario(database.db, real.vault, { from: FROM, now: NOW, bookings: 200 });
      // A full first page of venues (the default page size), as a partner listing a chain would get.
      for (let i = 0; i < 18; i++) await makeVenue(database.db, scenario.organisation.id);
      const venue = scenario.venue.id;
      const variant = scenario.treatments[1]!.variant.id;
      // A regular customer: a full first page of history (past bookings, as imported history is).
      const { customer_id: customer } = await database.db
        .selectFrom('bookings')
        .select('customer_id')
        .where('venue_id', '=', venue)
        .limit(1)
        .executeTakeFirstOrThrow();
      const treatment = { treatmentId: scenario.treatments[1]!.id, variantId: variant };
      for (let i = 0; i < 19; i++) {
        const start = Temporal.Instant.from('2026-01-05T09:00:00Z').add({ hours: 24 * 7 * i });
        await makeBooking(
          database.db,
          { venueId: venue, customerId: customer, ...treatment },
          { start_at: start.toString(), end_at: start.add({ hours: 1 }).toString() },
        );
      }
      const endpoints = [
        { name: 'GET /v1/venues', path: '/v1/venues' },
        {
          name: 'single-day availability',
          path: `/v1/venues/${venue}/availability/variants/${variant}?date=${FROM.toString()}`,
        },
        { name: 'customer bookings', path: `/v1/venues/${venue}/customers/${customer}/bookings` },
      ];

      lines.push(
        `hot path on postgres: real app (production middleware, info logs to /dev/null) vs bare Express + pg`,
        `  50 connections, ${ROUNDS} alternating runs of ${SECONDS} s per server after ${WARM_UP_SECONDS} s warm-up; ` +
          `20 venues, 20 bookings in the customer's history`,
      );
      for (const endpoint of endpoints) {
        await sameAnswer(real.base, baseline.base, endpoint.path, scenario.key);
        const realUrl = real.base + endpoint.path;
        const baselineUrl = baseline.base + endpoint.path;
        await measureThroughput(realUrl, scenario.key, WARM_UP_SECONDS);
        await measureThroughput(baselineUrl, scenario.key, WARM_UP_SECONDS);
        const runs = { real: [] as Throughput[], baseline: [] as Throughput[] };
        for (let round = 0; round < ROUNDS; round++) {
          runs.real.push(await measureThroughput(realUrl, scenario.key, SECONDS));
          runs.baseline.push(await measureThroughput(baselineUrl, scenario.key, SECONDS));
        }
        const realRps = mean(runs.real.map((r) => r.rps));
        const baselineRps = mean(runs.baseline.map((r) => r.rps));
        const ratio = (100 * realRps) / baselineRps;
        const cpu = (list: Throughput[]) => mean(list.map((r) => r.cpuMicrosPerRequest));
        const figures = (list: Throughput[]) =>
          `${mean(list.map((r) => r.rps)).toFixed(0)} req/s (runs ${list.map((r) => r.rps.toFixed(0)).join(', ')}); ` +
          `${cpu(list).toFixed(0)} µs event-loop CPU per request`;
        lines.push(
          `  ${endpoint.name}`,
          `    real      ${figures(runs.real)}`,
          `    baseline  ${figures(runs.baseline)}`,
          `    ratio     ${ratio.toFixed(1)}% of the baseline's req/s; ` +
            `${((100 * cpu(runs.baseline)) / cpu(runs.real)).toFixed(1)}% by CPU per request`,
          `    ${verdict(`${endpoint.name} throughput as a share of the same-work baseline`, ratio, TARGET, '%', true)}`,
        );
      }
    } finally {
      await baseline.close();
      await real.close();
    }
  } finally {
    await database.close();
  }
  return lines;
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** The baseline must answer what the app answers, or its figure is not the same work. */
async function sameAnswer(realBase: string, baselineBase: string, path: string, key: string) {
  const get = async (base: string) => {
    const res = await fetch(base + path, { headers: { authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`${base}${path} answered ${res.status}: ${await res.text()}`);
    return res.json();
  };
  const [real, baseline] = [await get(realBase), await get(baselineBase)];
  if (!isDeepStrictEqual(real, baseline))
    throw new Error(`the baseline's answer to ${path} differs from the app's:\n${JSON.stringify([real, baseline])}`);
}
