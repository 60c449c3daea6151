import { Temporal } from 'temporal-polyfill';
import { computeDays, loadSnapshot, toSnapshotVariant } from '../src/scheduling/index.js';
import { findVenueWithVariant } from '../src/venues/venues.repository.js';
import { openBenchDatabase } from './databases.js';
import { buildScenario } from './scenario.js';
import { runLoad } from './load.js';
import { serve } from './serve.js';
import { ms, summary, timed, verdict } from './stats.js';

const RUNS = 60;
const NOW = Temporal.Instant.from('2026-11-22T08:00:00Z');
const FROM = Temporal.PlainDate.from('2026-12-01');
const TO = FROM.add({ days: 62 });

/** The availability benchmark: a 62-day range and a single day through HTTP, and the pure computation alone. */
export async function benchAvailability(kind: 'pglite' | 'postgres') {
  const database = await openBenchDatabase(kind);
  const lines: string[] = [];
  try {
    const server = await serve(database.db, NOW);
    const scenario = await buildScenario(database.db, server.vault, { from: FROM, now: NOW, bookings: 500 });
    const variant = scenario.treatments[1]!.variant;
    const url = (query: string) =>
      `${server.base}/v1/venues/${scenario.venue.id}/availability/variants/${variant.id}?${query}`;
    const headers = { authorization: `Bearer ${scenario.key}` };

    const get = async (query: string) => {
      const res = await fetch(url(query), { headers });
      if (res.status !== 200) throw new Error(`availability answered ${res.status}: ${await res.text()}`);
      return res.json() as Promise<{ data: { days?: { slots: unknown[] }[] } }>;
    };
    const sample = await get(`from=${FROM.toString()}&to=${TO.toString()}`);
    const slotCount = sample.data.days!.reduce((n, d) => n + d.slots.length, 0);
    for (let i = 0; i < 5; i++) await get(`from=${FROM.toString()}&to=${TO.toString()}`);

    // Timed from a worker thread, as a partner's client on another machine would see them.
    const timedGets = async (queries: string[]) => {
      const result = await runLoad({ mode: 'get', urls: queries.map(url), key: scenario.key });
      if (result.statuses.get(200) !== queries.length)
        throw new Error(`availability answered ${JSON.stringify([...result.statuses])}`);
      return result.latencies;
    };
    const range = await timedGets(Array.from({ length: RUNS }, () => `from=${FROM.toString()}&to=${TO.toString()}`));
    const day = await timedGets(
      Array.from({ length: RUNS }, (_, i) => `date=${FROM.add({ days: i % 62 }).toString()}`),
    );

    const { variant: row, ...venue } = (await findVenueWithVariant(
      database.db,
      { id: scenario.venue.id },
      variant.id,
    ))!;
    const snapshot = await loadSnapshot(database.db, venue, toSnapshotVariant(row!), { from: FROM, to: TO }, true);
    const pure: number[] = [];
    for (let i = 0; i < RUNS * 4; i++)
      pure.push((await timed(() => computeDays(snapshot, { from: FROM, to: TO }, NOW)))[0]);
    const load: number[] = [];
    for (let i = 0; i < RUNS; i++)
      load.push(
        (await timed(() => loadSnapshot(database.db, venue, toSnapshotVariant(row!), { from: FROM, to: TO }, true)))[0],
      );
    await server.close();

    const r = summary(range),
      d = summary(day),
      p = summary(pure),
      l = summary(load);
    lines.push(
      `availability on ${kind}: ${scenario.placed} bookings placed, ${slotCount} slots listed over 63 days`,
      `  HTTP 62-day range   p50 ${ms(r.p50)}  p99 ${ms(r.p99)}  (${r.runs} runs)`,
      `  HTTP single day     p50 ${ms(d.p50)}  p99 ${ms(d.p99)}  (${d.runs} runs)`,
      `  snapshot load only  p50 ${ms(l.p50)}  p99 ${ms(l.p99)}  (${l.runs} runs)`,
      `  pure computeDays    p50 ${ms(p.p50)}  p99 ${ms(p.p99)}  (${p.runs} runs)`,
    );
    if (kind === 'postgres') {
      lines.push(
        `  ${verdict('HTTP 62-day range p50 on PostgreSQL', r.p50, 50, 'ms')}`,
        `  ${verdict('HTTP single day p50 on PostgreSQL', d.p50, 5, 'ms')}`,
      );
    }
  } finally {
    await database.close();
  }
  return lines;
}
