import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKING_COLUMNS } from '../../src/db/columns.js';
import { recordBookingEvent } from '../../src/webhooks/record-event.js';
import { eventually } from '../faults/support/child-server.js';
import { createWebhookContext } from './webhook-context.js';

const EVENTS = 100;
const ANSWER_AFTER_MS = 3_000;

/** A receiver that takes 3 s over every answer, counting each request it gets by its webhook-id. */
async function slowReceiver() {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests.push(String(req.headers['webhook-id']));
      setTimeout(() => res.writeHead(200).end('ok'), ANSWER_AFTER_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The campaign's case: a receiver answering in 3 s and 100 events at once. Attempts must not wait for a socket on
 * the clock of their 10 s (they would time out unanswered, and be sent again): the engine runs as many attempts
 * at once as its agents have sockets, and an attempt's clock starts on its socket.
 */
describe('webhooks to a slow receiver under a burst of events', () => {
  let ctx: Awaited<ReturnType<typeof createWebhookContext>>;
  let receiver: Awaited<ReturnType<typeof slowReceiver>>;
  beforeAll(async () => {
    ctx = await createWebhookContext({ config: { retrySchedule: [1, 1], allowPrivateNetworks: true } });
    receiver = await slowReceiver();
  });
  afterAll(async () => {
    await ctx.close();
    await receiver.close();
  });

  it('delivers 100 events once each, none timed out', { timeout: 120_000 }, async () => {
    const f = await ctx.venueWithEndpoint(receiver.url);
    const booking = await ctx.book(f, { start_at: '2026-12-01T10:00:00Z' });
    await ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('bookings')
        .select(BOOKING_COLUMNS)
        .where('id', '=', booking.id)
        .executeTakeFirstOrThrow();
      for (let i = 1; i < EVENTS; i++) await recordBookingEvent(trx, 'booking.confirmed', row);
    });
    ctx.engine.start();
    await eventually(async () => {
      const { count } = await ctx.db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      return Number(count) === 0;
    }, 90_000);
    const errors = await ctx.db.selectFrom('webhook_attempts').select('error').where('error', 'is not', null).execute();
    expect(errors).toEqual([]);
    expect(receiver.requests).toHaveLength(EVENTS);
    expect(new Set(receiver.requests).size).toBe(EVENTS);
  });
});
