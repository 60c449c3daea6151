import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { Db } from '../src/db/connect.js';
import {
  makeApiKey,
  makeOrganisation,
  makeRoom,
  makeTherapist,
  makeTreatment,
  makeVenue,
} from '../test/support/factories.js';
import { openBenchDatabase } from './databases.js';
import { type LoadResult, runLoad } from './load.js';
import { seeded } from './scenario.js';
import { shuffle } from '../src/lib/shuffle.js';
import { overlappingHolds } from '../test/support/overlapping-holds.js';
import { EVERY_DAY } from '../test/support/calendar.js';
import { serve } from './serve.js';
import { ms, summary, verdict } from './stats.js';
import { analyseDatabase, floorLines, measureCreateFloor } from './booking-floor.js';

const NOW = Temporal.Instant.from('2026-11-22T08:00:00Z');
const CLIENTS = 50;

const load = (url: string, key: string, bodies: object[]) =>
  runLoad({ mode: 'post', url, key, bodies, clients: CLIENTS });

async function bookableVenue(db: Db, vault: Parameters<typeof makeApiKey>[1], size: number) {
  const organisation = await makeOrganisation(db);
  const venue = await makeVenue(db, organisation.id, { opening_time: '08:00', closing_time: '20:00' });
  for (let i = 0; i < size; i++) {
    await makeRoom(db, venue.id);
    await makeTherapist(db, organisation.id, {
      shifts: [{ venue_id: venue.id, days_of_week: EVERY_DAY, start_time: '08:00', end_time: '20:00' }],
    });
  }
  const treatment = await makeTreatment(db, venue.id, { variants: [{ duration_minutes: 30, price_minor: 5000 }] });
  const { key } = await makeApiKey(db, vault, organisation.id);
  return { venue, variant: treatment.variant, key };
}

function body(variantId: string, start: Temporal.Instant, n: number) {
  return {
    variant_id: variantId,
    start_at: start.toString(),
    guest: { first_name: 'Load', last_name: `Client ${n}`, email: `load${n % 500}@bench.example` },
    external_id: `bench-${randomUUID()}`,
    price_paid: { amount: 50, currency: 'EUR' },
  };
}

/** Slots of the grid, venue local 08:00–19:30 in Paris, day after day from 2026-12-01. */
function slotStarts(count: number): Temporal.Instant[] {
  const starts: Temporal.Instant[] = [];
  for (let day = 0; starts.length < count; day++) {
    for (let half = 0; half < 24 && starts.length < count; half++) {
      const local = Temporal.PlainDate.from('2026-12-01')
        .add({ days: day })
        .toZonedDateTime({
          timeZone: 'Europe/Paris',
          plainTime: Temporal.PlainTime.from({ hour: 8 + Math.floor(half / 2), minute: (half % 2) * 30 }),
        });
      starts.push(local.toInstant());
    }
  }
  return starts;
}

/** The floor's run: the endpoint's bodies (same slots, same order) on a venue of the same shape. */
function measureFloor(db: Db, at: Awaited<ReturnType<typeof bookableVenue>>, bodies: { variant_id: string }[]) {
  return measureCreateFloor({
    db,
    organisationId: at.venue.organisation_id,
    venueId: at.venue.id,
    bodies: bodies.map((b, i) => ({ ...b, variant_id: at.variant.id, external_id: `floor-${i}-${randomUUID()}` })),
    clients: CLIENTS,
    now: NOW,
  });
}

/** The booking benchmark on PostgreSQL: throughput over many slots, then heavy contention on few. */
export async function benchBookings() {
  const database = await openBenchDatabase('postgres', 20);
  const lines: string[] = [];
  try {
    const server = await serve(database.db, NOW);
    const spread = await bookableVenue(database.db, server.vault, 10);
    const floorVenue = await bookableVenue(database.db, server.vault, 10);
    await analyseDatabase(database.db);
    const url = (venueId: string) => `${server.base}/v1/venues/${venueId}/bookings`;
    // Warm-up: connections, JIT, the pool.
    await load(
      url(spread.venue.id),
      spread.key,
      slotStarts(100).map((s, i) => body(spread.variant.id, s, i)),
    );

    // Many slots: 140 slots of 10 capacity-1 rooms and 10 therapists, each slot asked for 10 times, in random order.
    const random = seeded(7);
    // In random order, so the 50 clients spread over many slots at once instead of queueing on one.
    const many = shuffle(
      slotStarts(150)
        .slice(10)
        .flatMap((s) => Array.from({ length: 10 }, () => s)),
      random,
    ).map((s, i) => body(spread.variant.id, s, i));
    const spreadRun = await load(url(spread.venue.id), spread.key, many);
    const floor = await measureFloor(database.db, floorVenue, many);

    // Heavy contention: 500 requests on 5 capacity-1 slots.
    const tight = await bookableVenue(database.db, server.vault, 1);
    const few = slotStarts(5);
    const contention = await load(
      url(tight.venue.id),
      tight.key,
      Array.from({ length: 500 }, (_, i) => body(tight.variant.id, few[i % 5]!, i)),
    );
    await server.close();

    const double = await overlappingHolds(database.db);
    const created = (r: LoadResult) => r.statuses.get(201) ?? 0;
    const s = summary(spreadRun.latencies),
      c = summary(contention.latencies);
    const rate = created(spreadRun) / spreadRun.seconds;
    const format = (r: LoadResult) =>
      [...r.statuses.entries()]
        .sort()
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ');
    lines.push(
      `bookings on postgres, ${CLIENTS} concurrent clients over HTTP`,
      `  many slots   ${many.length} requests in ${spreadRun.seconds.toFixed(2)} s  -> ${rate.toFixed(0)} creates/s; p50 ${ms(s.p50)} p99 ${ms(s.p99)}; ${format(spreadRun)}`,
      `  contention   500 requests on 5 slots in ${contention.seconds.toFixed(2)} s; p50 ${ms(c.p50)} p99 ${ms(c.p99)}; ${format(contention)}`,
      ...floorLines({ rate, p99: s.p99 }, floor),
      `  double bookings (overlapping reservations, by SQL): ${double}`,
      `  ${verdict('creates per second', rate, 500, '/s', true)}`,
      `  ${verdict('create p99 (many slots)', s.p99, 100, 'ms')}`,
      `  ${double === 0 ? 'MEETS' : 'MISSES'}  double bookings: ${double} (target 0)`,
    );
    if (created(contention) !== 5) lines.push(`  UNEXPECTED: ${created(contention)} creates on 5 capacity-1 slots`);
  } finally {
    await database.close();
  }
  return lines;
}
