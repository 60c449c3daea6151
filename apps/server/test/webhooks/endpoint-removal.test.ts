import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { webhookEndpoints } from '../../src/webhooks/index.js';
import { startReceiver, type Receiver } from './receiver.js';
import { createWebhookContext, type WebhookContext } from './webhook-context.js';

describe('removing a webhook endpoint keeps its history', () => {
  let ctx: WebhookContext;
  let r: Receiver;
  const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };

  beforeAll(async () => {
    ctx = await createWebhookContext({ attemptTimeoutMs: 800, logger });
    r = await startReceiver();
  });
  afterAll(async () => {
    await ctx.close();
    await r.close();
  });

  it('records the result of an attempt in flight at removal, and settles the other pending deliveries', async () => {
    const f = await ctx.venueWithEndpoint(r.url);
    const inFlight = await ctx.book(f, { start_at: '2026-12-01T10:00:00Z' });
    r.answer('hang');
    const pass = ctx.engine.runOnce();
    await r.waitFor(1);
    // A second event queued after the claim: pending, never sent once the endpoint is gone.
    const queued = await ctx.book(f, { start_at: '2026-12-01T12:00:00Z' });

    await webhookEndpoints.removeEndpoint(ctx.db, f.endpoint.id);
    await pass;

    expect(logger.error).not.toHaveBeenCalled();
    const rows = await ctx.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .leftJoin('webhook_attempts as a', 'a.delivery_id', 'd.id')
      .select(['e.booking_id', 'd.status', 'd.completed_at', 'a.attempt', 'a.error'])
      .where('d.endpoint_id', '=', f.endpoint.id)
      .orderBy('e.created_at')
      .execute();
    expect(rows).toEqual([
      expect.objectContaining({ booking_id: inFlight.id, status: 'failed', attempt: 1, error: expect.any(String) }),
      expect.objectContaining({ booking_id: queued.id, status: 'failed', attempt: null }),
    ]);
    expect(rows.every((row) => row.completed_at !== null)).toBe(true);

    // Gone from every list and from new events; its log stays readable.
    expect(await webhookEndpoints.listEndpoints(ctx.db, f.organisation.slug)).toEqual([]);
    const log = await webhookEndpoints.listDeliveries(ctx.db, { orgSlug: f.organisation.slug });
    expect(log.filter((row) => row.attempt === 1)).toHaveLength(1);
    await ctx.book(f, { start_at: '2026-12-01T14:00:00Z' });
    const deliveries = await ctx.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('endpoint_id', '=', f.endpoint.id)
      .execute();
    expect(deliveries).toHaveLength(2);
    expect((await ctx.engine.runOnce()).attempted).toBe(0);
    expect(r.received).toHaveLength(1);

    // Removed once: a second removal, a rotation or enabling it names no endpoint.
    await expect(webhookEndpoints.removeEndpoint(ctx.db, f.endpoint.id)).rejects.toThrow(
      `No webhook endpoint ${f.endpoint.id}`,
    );
    await expect(webhookEndpoints.enableEndpoint(ctx.db, f.endpoint.id)).rejects.toThrow('No webhook endpoint');
  });
});
