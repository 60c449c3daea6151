import { randomUUID } from 'node:crypto';
import { contract } from '@spa/contract';
import { Temporal } from 'temporal-polyfill';
import { toSlotJson } from '../src/availability/slot.mapper.js';
import { computeDays, loadSnapshot, toSnapshotVariant } from '../src/scheduling/index.js';
import { findVenueWithVariant } from '../src/venues/venues.repository.js';
import { openBenchDatabase } from './databases.js';
import { growthReport, type SizeResult } from './growth-report.js';
import { buildGrowthVenue, CANDIDATES_PER_DAY, SIZES, type VenueSize } from './growth-venue.js';
import { runLoad } from './load.js';
import { serve } from './serve.js';
import { percentile, timed } from './stats.js';

const NOW = Temporal.Instant.from('2026-11-22T08:00:00Z');
const FROM = Temporal.PlainDate.from('2026-12-01');
const DAYS = 62;
const TO = FROM.add({ days: DAYS - 1 });
const RUNS = { day: 60, range: 20, pure: 30, creates: 40, warmUp: 5 };
const rangeSchema = contract.availability.variant.responses[200];

/** `pnpm bench growth`: availability and booking create on three venue sizes, and how their cost grows. */
export async function benchGrowth(): Promise<string[]> {
  const started = performance.now();
  const results: SizeResult[] = [];
  for (const size of SIZES) results.push(await measureSize(size));
  return [...growthReport(results), `  (whole growth bench: ${((performance.now() - started) / 1000).toFixed(0)} s)`];
}

async function measureSize(size: VenueSize): Promise<SizeResult> {
  const database = await openBenchDatabase('postgres');
  try {
    const server = await serve(database.db, NOW);
    const built = await timed(() =>
      buildGrowthVenue(database.db, server.vault, size, { from: FROM, days: DAYS, now: NOW }),
    );
    const { venue, variant, key, placed } = built[1];
    const path = `${server.base}/v1/venues/${venue.id}`;
    const availability = (query: string) => `${path}/availability/variants/${variant.id}?${query}`;
    const rangeUrl = availability(`from=${FROM.toString()}&to=${TO.toString()}`);
    const dayUrl = (i: number) => availability(`date=${FROM.add({ days: i % DAYS }).toString()}`);

    // The range answer once, untimed: its size on the wire and the listed slots the creates will take.
    const answer = await fetch(rangeUrl, { headers: { authorization: `Bearer ${key}` } });
    const text = await answer.text();
    if (answer.status !== 200) throw new Error(`availability answered ${answer.status}: ${text}`);
    const listed = (JSON.parse(text) as { data: { days: { slots: { start_at: string }[] }[] } }).data.days.flatMap(
      (d) => d.slots.map((s) => s.start_at),
    );

    const gets = async (urls: string[]) => {
      const result = await runLoad({ mode: 'get', urls, key });
      if (result.statuses.get(200) !== urls.length)
        throw new Error(`availability answered ${JSON.stringify([...result.statuses])}`);
      return percentile(result.latencies, 50);
    };
    await gets([...Array(RUNS.warmUp).fill(rangeUrl), ...Array.from({ length: RUNS.warmUp }, (_, i) => dayUrl(i))]);
    const day = await gets(Array.from({ length: RUNS.day }, (_, i) => dayUrl(i)));
    const range = await gets(Array(RUNS.range).fill(rangeUrl));

    // Creates on listed slots spread evenly over the range, one at a time; the first few warm the path up.
    const count = RUNS.warmUp + RUNS.creates;
    const starts = Array.from({ length: count }, (_, i) => listed[Math.floor(((i + 0.5) * listed.length) / count)]!);
    const body = (start: string) => ({
      variant_id: variant.id,
      start_at: start,
      guest: { first_name: 'Growth', last_name: 'Bench', email: 'growth-create@bench.example' },
      external_id: `growth-${randomUUID()}`,
      price_paid: { amount: variant.price_minor / 100, currency: 'EUR' },
    });
    const post = (bodies: object[]) => runLoad({ mode: 'post', url: `${path}/bookings`, key, bodies, clients: 1 });
    await post(starts.slice(0, RUNS.warmUp).map(body));
    const creates = await post(starts.slice(RUNS.warmUp).map(body));
    await server.close();

    const split = await pureSplit(database.db, venue.id, variant.id);
    return {
      size,
      placed,
      buildSeconds: built[0] / 1000,
      resources: split.resources,
      holds: split.holds,
      candidates: { day: CANDIDATES_PER_DAY, range: CANDIDATES_PER_DAY * DAYS },
      slotsListed: listed.length,
      rangeBytes: Buffer.byteLength(text),
      p50: { day, range, create: percentile(creates.latencies, 50) },
      createStatuses: creates.statuses,
      split: split.p50,
    };
  } finally {
    await database.close();
  }
}

/** The 62-day request's parts in process: snapshot load, computeDays, and the encoding the router and ts-rest do. */
async function pureSplit(db: Parameters<typeof loadSnapshot>[0], venueId: string, variantId: string) {
  const { variant, ...venue } = (await findVenueWithVariant(db, { id: venueId }, variantId))!;
  const snapshotVariant = toSnapshotVariant(variant!);
  const period = { from: FROM, to: TO };
  const samples = { load: [] as number[], compute: [] as number[], map: [] as number[], check: [] as number[] };
  const stringify: number[] = [];
  let resources = 0;
  let holds = 0;
  for (let i = 0; i < RUNS.pure + RUNS.warmUp; i++) {
    const [load, snapshot] = await timed(() => loadSnapshot(db, venue, snapshotVariant, period, true));
    const [compute, days] = await timed(() => computeDays(snapshot, period, NOW, 1));
    // As availability.router.ts builds its answer, then as ts-rest checks (responseValidation) and sends it.
    const [map, data] = await timed(() => ({
      data: {
        venue_id: venue.id,
        treatment_id: variant!.treatment_id,
        variant_id: variant!.id,
        from: FROM.toString(),
        to: TO.toString(),
        days: days.map((d) => ({ date: d.date.toString(), slots: d.slots.map(toSlotJson) })),
      },
    }));
    const [check, checked] = await timed(() => rangeSchema.parse(data));
    const [json] = await timed(() => JSON.stringify(checked));
    resources = snapshot.rooms.length + snapshot.therapists.length;
    holds = snapshot.roomReservations.length + snapshot.therapistReservations.length;
    if (i < RUNS.warmUp) continue;
    samples.load.push(load);
    samples.compute.push(compute);
    samples.map.push(map);
    samples.check.push(check);
    stringify.push(json);
  }
  const p = (xs: number[]) => percentile(xs, 50);
  return {
    resources,
    holds,
    p50: {
      load: p(samples.load),
      compute: p(samples.compute),
      map: p(samples.map),
      check: p(samples.check),
      stringify: p(stringify),
    },
  };
}
