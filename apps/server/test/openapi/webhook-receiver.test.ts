import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Delivery, startWebhookReceiver } from '../../../../docs/examples/webhook-receiver.mjs';
import { createWebhookContext, type WebhookContext } from '../webhooks/webhook-context.js';

/** Resolves once `check` holds, polling every 50 ms; fails after `timeoutMs` with what it last saw. */
async function waitUntil<T>(read: () => T, check: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The example receiver of docs/examples/webhook-receiver.mts, typed from the document's webhook schemas, gets a real
 * delivery: an endpoint registered with the service the CLI's `webhooks add` uses, a booking through the API, the
 * server's webhook engine sending the signed event.
 */
describe('a webhook receiver typed from the OpenAPI document, against a real delivery', () => {
  let ctx: WebhookContext;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const deliveries: Delivery[] = [];
  let secret = '';

  beforeAll(async () => {
    ctx = await createWebhookContext();
    // The secret is known once the endpoint exists, and the endpoint needs the receiver's URL: the receiver reads
    // it through a closure.
    receiver = await startWebhookReceiver({
      get secret() {
        return secret;
      },
      onDelivery: (delivery) => deliveries.push(delivery),
    });
  });

  afterAll(async () => {
    await ctx?.close();
    await receiver?.close();
  });

  it('verifies the signature of booking.created and parses it as the generated type', async () => {
    const fixture = await ctx.venueWithEndpoint(receiver.url, { events: 'booking.created' });
    secret = fixture.endpoint.secret;
    const booking = await ctx.book(fixture, { start_at: '2026-12-01T09:00:00Z' });
    ctx.engine.start();
    const [delivery] = await waitUntil(
      () => deliveries,
      (list) => list.length > 0,
    );
    await ctx.engine.stop();

    const event = delivery!.event;
    expect(event.type).toBe('booking.created');
    if (event.type !== 'booking.created') return;
    // Typed by the generated schema: data.booking is a Booking.
    expect([event.data.booking.id, event.data.booking.status]).toEqual([booking.id, 'pending']);
    expect(event.timestamp).toBe(booking.updated_at);
    expect(delivery!.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a delivery whose signature does not hold, and handles nothing', async () => {
    const before = deliveries.length;
    const body = JSON.stringify({ type: 'booking.created', timestamp: '2026-12-01T09:00:00Z', data: {} });
    const res = await fetch(receiver.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': '0b5b7c8e-4f0e-4c1e-9a55-3c1f8d2e6a10',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
      },
      body,
    });
    expect(res.status).toBe(400);
    expect(deliveries.length).toBe(before);
  });
});
