import { Temporal } from 'temporal-polyfill';
import { EVERY_DAY } from '../test/support/calendar.js';
import { createWebhookEngine, webhookEndpoints } from '../src/webhooks/index.js';
import { WebhookMetrics } from '../src/webhooks/metrics.js';
import {
  makeApiKey,
  makeOrganisation,
  makeRoom,
  makeTherapist,
  makeTreatment,
  makeVenue,
} from '../test/support/factories.js';
import { runningClock, startReceiver } from '../test/webhooks/receiver.js';
import { openBenchDatabase } from './databases.js';
import { serve } from './serve.js';
import { shuffle } from '../src/lib/shuffle.js';
import { seeded } from './scenario.js';
import { ms, summary } from './stats.js';

const START = '2026-11-22T08:00:00Z';

/**
 * Webhooks under the booking load: the real app and its webhook engine in one process (as `pnpm start` runs
 * them), a receiver on loopback, bookings created over HTTP. Lag is from the client's receipt of the 201 (just
 * after the commit) to the event's arrival at the receiver; lost = created bookings whose booking.created never
 * arrived within 60 s after the load.
 */
export async function benchWebhooks(kind: 'postgres' | 'pglite', requests: number, clients: number) {
  const database = await openBenchDatabase(kind, 20);
  const lines: string[] = [];
  const receiver = await startReceiver();
  try {
    const clock = runningClock(START);
    const server = await serve(database.db, clock);
    const { base, vault } = server;
    const metrics = new WebhookMetrics();
    const engine = createWebhookEngine({
      db: database.db,
      clock,
      vault,
      config: { retrySchedule: [1, 5, 30], allowPrivateNetworks: true },
      metrics,
    });

    const organisation = await makeOrganisation(database.db);
    const venue = await makeVenue(database.db, organisation.id, { opening_time: '08:00', closing_time: '20:00' });
    for (let i = 0; i < 10; i++) {
      await makeRoom(database.db, venue.id);
      await makeTherapist(database.db, organisation.id, {
        shifts: [{ venue_id: venue.id, days_of_week: EVERY_DAY, start_time: '08:00', end_time: '20:00' }],
      });
    }
    const treatment = await makeTreatment(database.db, venue.id, {
      variants: [{ duration_minutes: 30, price_minor: 5000 }],
    });
    const { key } = await makeApiKey(database.db, vault, organisation.id);
    await webhookEndpoints.addEndpoint(database.db, vault, {
      orgSlug: organisation.slug,
      url: receiver.url,
      allowPrivateNetworks: true,
    });

    // Distinct slots (10 rooms x 24 half-hours a day), so each request creates one booking; in random order,
    // so that concurrent clients spread over slots instead of queueing on one.
    const bodies = shuffle(
      Array.from({ length: requests }, (_, i) => {
        const day = Math.floor(i / 240);
        const half = Math.floor((i % 240) / 10);
        const start = Temporal.PlainDate.from('2026-12-01')
          .add({ days: day })
          .toZonedDateTime({
            timeZone: 'Europe/Paris',
            plainTime: Temporal.PlainTime.from({ hour: 8 + Math.floor(half / 2), minute: (half % 2) * 30 }),
          })
          .toInstant();
        return {
          variant_id: treatment.variant.id,
          start_at: start.toString(),
          guest: { first_name: 'Load', last_name: `Client ${i}`, email: `load${i % 500}@bench.example` },
          price_paid: { amount: 50, currency: 'EUR' },
        };
      }),
      seeded(11),
    );

    engine.start();
    // Clients in this process, so the moment each 201 arrives (just after its commit) and the moment its event
    // reaches the receiver are read on the same clock.
    const committedAt = new Map<string, number>();
    const url = `${base}/v1/venues/${venue.id}/bookings`;
    let next = 0;
    const began = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++];
          const res = await fetch(url, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          const at = performance.now();
          if (res.status === 201) committedAt.set(((await res.json()) as { data: { id: string } }).data.id, at);
          else await res.arrayBuffer();
        }
      }),
    );
    const seconds = (performance.now() - began) / 1000;
    const created = committedAt.size;
    const bookingOf = (body: string) => (JSON.parse(body) as { data: { booking: { id: string } } }).data.booking.id;
    const deadline = Date.now() + 60_000;
    while (new Set(receiver.received.map((r) => r.id)).size < created && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    await engine.stop();
    await server.close();

    const firstArrival = new Map<string, number>();
    for (const r of receiver.received) {
      const id = bookingOf(r.body);
      if (!firstArrival.has(id) && committedAt.has(id)) firstArrival.set(id, r.at - committedAt.get(id)!);
    }
    const lags = [...firstArrival.values()];
    const s = summary(lags);
    const lost = created - firstArrival.size;
    const duplicates = receiver.received.length - firstArrival.size;
    lines.push(
      `webhooks on ${kind}, ${clients} concurrent clients creating bookings over HTTP, receiver on loopback`,
      `  ${created} bookings created (${(created / seconds).toFixed(0)}/s), ${firstArrival.size} booking.created events received, ${duplicates} duplicates`,
      `  delivery lag (201 received -> event received): p50 ${ms(s.p50)} p99 ${ms(s.p99)} max ${ms(s.max)}`,
      `  ${lost === 0 ? 'MEETS' : 'MISSES'}  events lost: ${lost} (target 0)`,
    );
  } finally {
    await receiver.close();
    await database.close();
  }
  return lines;
}
