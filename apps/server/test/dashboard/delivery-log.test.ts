import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperatorError } from '../../src/errors/operator-error.js';
import { listDeliveriesOf } from '../../src/webhooks/delivery-log.repository.js';
import { webhookEndpoints } from '../../src/webhooks/index.js';
import { DisabledEndpointError, queueTestEvent } from '../../src/webhooks/test-event.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { createWebhookContext, type WebhookContext } from '../webhooks/webhook-context.js';

const PAGE = { offset: 0, limit: 100 };

describe('test events and the delivery log with attempts', () => {
  let ctx: WebhookContext;
  let r: Receiver;
  let other: Receiver;
  let f: Awaited<ReturnType<WebhookContext['venueWithEndpoint']>>;
  let second: Awaited<ReturnType<typeof webhookEndpoints.addEndpoint>>;
  let foreign: Awaited<ReturnType<WebhookContext['venueWithEndpoint']>>;

  beforeAll(async () => {
    ctx = await createWebhookContext();
    r = await startReceiver();
    other = await startReceiver();
    f = await ctx.venueWithEndpoint(r.url);
    second = await webhookEndpoints.addEndpoint(ctx.db, ctx.vault, {
      orgSlug: f.organisation.slug,
      url: other.url,
      allowPrivateNetworks: true,
    });
    foreign = await ctx.venueWithEndpoint(other.url);
  });
  afterAll(async () => {
    await ctx.close();
    await r.close();
    await other.close();
  });

  it('sends { type: webhook.test, timestamp, livemode, data: {} } to that endpoint alone, signed, and logs the attempt', async () => {
    const now = ctx.clock.now();
    const { eventId, timestamp } = await queueTestEvent(ctx.db, f.endpoint.id, {
      organisationId: f.organisation.id,
      now,
    });
    await ctx.engine.runOnce();
    expect(r.received.map((x) => x.id)).toEqual([eventId]);
    expect(other.received).toEqual([]);
    expect(r.verified(f.endpoint.secret)).toEqual([{ type: 'webhook.test', timestamp, livemode: true, data: {} }]);
    expect(timestamp).toBe(now.round({ smallestUnit: 'second', roundingMode: 'trunc' }).toString());

    const log = await listDeliveriesOf(ctx.db, f.organisation.id, true, { eventType: 'webhook.test' }, PAGE);
    expect(log.total).toBe(1);
    expect(log.rows[0]).toMatchObject({
      event_id: eventId,
      event_type: 'webhook.test',
      booking_id: null,
      endpoint_id: f.endpoint.id,
      url: r.url,
      status: 'succeeded',
      attempt_log: [{ attempt: 1, status_code: 200, error: null }],
    });
    expect(log.rows[0]!.attempt_log[0]!.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('logs a failed attempt with its status code, the delivery pending its retry', async () => {
    r.answer({ status: 503 });
    const failing = await queueTestEvent(ctx.db, f.endpoint.id, { now: ctx.clock.now() });
    await ctx.engine.runOnce();
    const [row] = (await listDeliveriesOf(ctx.db, f.organisation.id, true, { status: 'pending' }, PAGE)).rows;
    expect(row).toMatchObject({ event_id: failing.eventId, attempt_log: [{ attempt: 1, status_code: 503 }] });
  });

  it('filters by endpoint, status and event type, and shows another organisation nothing of it', async () => {
    const booking = await ctx.book(f, { start_at: '2026-12-01T09:00:00Z' });
    const byType = await listDeliveriesOf(ctx.db, f.organisation.id, true, { eventType: 'booking.created' }, PAGE);
    expect(byType.rows.map((d) => [d.booking_id, d.endpoint_id]).sort()).toEqual(
      [
        [booking.id, f.endpoint.id],
        [booking.id, second.id],
      ].sort(),
    );
    const bySecond = await listDeliveriesOf(ctx.db, f.organisation.id, true, { endpointId: second.id }, PAGE);
    expect(bySecond.rows.map((d) => d.event_type)).toEqual(['booking.created']);
    expect(
      (await listDeliveriesOf(ctx.db, f.organisation.id, true, { bookingId: booking.id }, PAGE)).rows.map((d) => d.url),
    ).toHaveLength(2);
    expect((await listDeliveriesOf(ctx.db, foreign.organisation.id, true, {}, PAGE)).total).toBe(0);
    expect(
      (await listDeliveriesOf(ctx.db, foreign.organisation.id, true, { endpointId: f.endpoint.id }, PAGE)).total,
    ).toBe(0);
  });

  it('replays a test event to its own endpoint only', async () => {
    const { eventId } = await queueTestEvent(ctx.db, second.id, { now: ctx.clock.now() });
    await ctx.engine.runOnce();
    expect(await webhookEndpoints.replay(ctx.db, eventId, { organisationId: f.organisation.id })).toMatchObject({
      type: 'webhook.test',
      queued: 1,
    });
  });

  it("refuses another organisation's endpoint or event, and a disabled endpoint", async () => {
    await expect(queueTestEvent(ctx.db, f.endpoint.id, { organisationId: foreign.organisation.id })).rejects.toThrow(
      new OperatorError(`No webhook endpoint ${f.endpoint.id}`),
    );
    const [event] = (await listDeliveriesOf(ctx.db, f.organisation.id, true, {}, PAGE)).rows;
    await expect(
      webhookEndpoints.replay(ctx.db, event!.event_id, { organisationId: foreign.organisation.id }),
    ).rejects.toThrow(new OperatorError(`No webhook event ${event!.event_id}`));
    await ctx.db
      .updateTable('webhook_endpoints')
      .set({ disabled_at: '2026-11-22T08:00:00Z' })
      .where('id', '=', second.id)
      .execute();
    await expect(queueTestEvent(ctx.db, second.id)).rejects.toThrow(new DisabledEndpointError(second.id));
  });
});
