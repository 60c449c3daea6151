import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { OperatorError } from '../../src/errors/operator-error.js';
import { webhookEndpoints } from '../../src/webhooks/index.js';
import { createWebhookEngine } from '../../src/webhooks/webhook-engine.js';
import { LOCAL_RECEIVER_HINT } from '../../src/webhooks/safe-target.js';
import { startReceiver, type Receiver } from './receiver.js';
import { createWebhookContext, type WebhookContext } from './webhook-context.js';

/** Waits until `check` holds, polling; fails with what it last saw. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('webhook delivery: retries, time limit, redirects, address checks, rotation, replay, disabling', () => {
  let ctx: WebhookContext;
  const receivers: Receiver[] = [];
  const receiver = async () => {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  };
  let slot = 0;
  /** A fresh start time per booking: the tests of this file share one venue calendar per fixture. */
  const nextStart = () =>
    `2026-12-${String(1 + Math.floor(slot / 8)).padStart(2, '0')}T${String(8 + (slot++ % 8)).padStart(2, '0')}:00:00Z`;

  beforeAll(async () => {
    ctx = await createWebhookContext({ attemptTimeoutMs: 500 });
  });
  afterAll(async () => {
    await ctx.close();
    for (const r of receivers) await r.close();
  });

  const attemptsOf = (eventId: string) =>
    ctx.db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select(['a.attempt', 'a.status_code', 'a.error', 'a.response_body', 'd.status'])
      .where('d.event_id', '=', eventId)
      .orderBy('a.attempt')
      .execute();

  it('retries a receiver that answers 500 twice and delivers on the third attempt, with the same webhook-id', async () => {
    const r = await receiver();
    const f = await ctx.venueWithEndpoint(r.url);
    r.answer({ status: 500 }, { status: 500 });
    await ctx.book(f, { start_at: nextStart() });
    ctx.engine.start();
    await r.waitFor(3);
    await ctx.engine.stop();
    expect(r.received.map((x) => x.id)).toEqual([r.received[0]!.id, r.received[0]!.id, r.received[0]!.id]);
    // About a second apart: the schedule of this test is 1,1 seconds.
    expect(r.received[2]!.at - r.received[1]!.at).toBeGreaterThan(900);
    const log = await eventually(
      () => attemptsOf(r.received[0]!.id),
      (rows) => rows.length === 3 && rows[0]!.status === 'succeeded',
    );
    expect(log).toEqual([
      { attempt: 1, status_code: 500, error: 'HTTP 500', response_body: 'answer 500', status: 'succeeded' },
      { attempt: 2, status_code: 500, error: 'HTTP 500', response_body: 'answer 500', status: 'succeeded' },
      { attempt: 3, status_code: 200, error: null, response_body: 'ok', status: 'succeeded' },
    ]);
    expect((await ctx.metrics.delivered.get()).values[0]!.value).toBeGreaterThanOrEqual(1);
  });

  it('marks a delivery failed after the last retry of the schedule', async () => {
    const r = await receiver();
    const f = await ctx.venueWithEndpoint(r.url);
    r.answer({ status: 503 }, { status: 503 }, { status: 503 });
    await ctx.book(f, { start_at: nextStart() });
    ctx.engine.start();
    await r.waitFor(3);
    await ctx.engine.stop();
    const log = await eventually(
      () => attemptsOf(r.received[0]!.id),
      (rows) => rows.length === 3 && rows[0]!.status === 'failed',
    );
    expect(log.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 503],
      [2, 503],
      [3, 503],
    ]);
    const deliveries = await webhookEndpoints.listDeliveries(ctx.db, {
      orgSlug: f.organisation.slug,
      status: 'failed',
    });
    expect(deliveries.map((d) => [d.type, d.status, d.attempt, d.error])).toEqual([
      ['booking.created', 'failed', 3, 'HTTP 503'],
      ['booking.created', 'failed', 2, 'HTTP 503'],
      ['booking.created', 'failed', 1, 'HTTP 503'],
    ]);
  });

  it('times out a receiver that does not answer, then delivers on the retry', async () => {
    const r = await receiver();
    const f = await ctx.venueWithEndpoint(r.url);
    r.answer('hang');
    await ctx.book(f, { start_at: nextStart() });
    ctx.engine.start();
    await r.waitFor(2);
    await ctx.engine.stop();
    const log = await eventually(
      () => attemptsOf(r.received[0]!.id),
      (rows) => rows.length === 2 && rows[0]!.status === 'succeeded',
    );
    expect(log.map((a) => [a.status_code, a.error])).toEqual([
      [null, 'No answer within 0.5 s'],
      [200, null],
    ]);
  });

  it('does not follow a redirect: it is a failed attempt, and the other address gets nothing', async () => {
    const r = await receiver();
    const f = await ctx.venueWithEndpoint(r.url);
    r.answer({ status: 307, location: `http://127.0.0.1:${r.port}/elsewhere` });
    await ctx.book(f, { start_at: nextStart() });
    await ctx.engine.runOnce();
    expect(r.received.map((x) => x.path)).toEqual(['/hooks']);
    const [attempt] = await attemptsOf(r.received[0]!.id);
    expect(attempt).toMatchObject({
      status_code: 307,
      error: `Redirect to http://127.0.0.1:${r.port}/elsewhere not followed`,
      status: 'pending',
    });
  });

  it('refuses at registration http and URLs that resolve to loopback, private or link-local addresses without the dev flag', async () => {
    const f = await ctx.venueWithEndpoint((await receiver()).url);
    const add = (url: string) =>
      webhookEndpoints.addEndpoint(ctx.db, ctx.vault, {
        orgSlug: f.organisation.slug,
        url,
        allowPrivateNetworks: false,
      });
    await expect(add('http://example.com/hooks')).rejects.toThrow(
      new OperatorError(`The URL must use https, not http${LOCAL_RECEIVER_HINT}`),
    );
    for (const [url, address, range] of [
      ['https://127.0.0.1/hooks', '127.0.0.1', 'a loopback'],
      ['https://localhost:8443/hooks', '127.0.0.1', 'a loopback'],
      ['https://10.1.2.3/hooks', '10.1.2.3', 'a private'],
      ['https://192.168.0.10/hooks', '192.168.0.10', 'a private'],
      ['https://169.254.169.254/latest', '169.254.169.254', 'a link-local'],
      ['https://0.0.0.0/hooks', '0.0.0.0', 'an unspecified'],
      ['https://[::1]/hooks', '::1', 'a loopback'],
      ['https://[fe80::1]/hooks', 'fe80::1', 'a link-local'],
      ['https://[fd00::1]/hooks', 'fd00::1', 'a unique-local'],
      ['https://[::ffff:127.0.0.1]/hooks', '::ffff:7f00:1', 'a loopback'],
    ]) {
      const host = new URL(url!).hostname.replace(/^\[|\]$/g, '');
      await expect(add(url!), url).rejects.toThrow(
        `The host ${host} resolves to ${address}, ${range} address; webhooks go only to public addresses${LOCAL_RECEIVER_HINT}`,
      );
    }
    await expect(add('ftp://example.com')).rejects.toThrow('The URL must use https, not ftp');
    await expect(add('https://user:pw@example.com/')).rejects.toThrow('must not carry a user name or password');
  });

  it('checks the address again at each delivery: without the dev flag a private receiver gets nothing', async () => {
    const r = await receiver();
    const f = await ctx.venueWithEndpoint(r.url);
    const strict = createWebhookEngine({
      db: ctx.db,
      clock: ctx.clock,
      vault: ctx.vault,
      config: { retrySchedule: [], allowPrivateNetworks: false },
    });
    await ctx.book(f, { start_at: nextStart() });
    await strict.runOnce();
    expect(r.received).toEqual([]);
    const [row] = await webhookEndpoints.listDeliveries(ctx.db, { orgSlug: f.organisation.slug });
    expect(row).toMatchObject({
      status: 'failed',
      attempt: 1,
      status_code: null,
      error: `The URL must use https, not http${LOCAL_RECEIVER_HINT}`,
    });
  });

  it('signs with both secrets for 24 hours after a rotation; each verifies with standardwebhooks', async () => {
    const r = await receiver();
    const f = await ctx.venueWithEndpoint(r.url);
    const rotated = await webhookEndpoints.rotateSecret(ctx.db, ctx.vault, f.endpoint.id, { now: ctx.clock.now() });
    await ctx.book(f, { start_at: nextStart() });
    await ctx.engine.runOnce();
    const [delivery] = r.received;
    expect(delivery!.signature.split(' ')).toHaveLength(2);
    for (const secret of [f.endpoint.secret, rotated.secret])
      expect(new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>)).toMatchObject({
        type: 'booking.created',
      });
    ctx.clock.advance({ hours: 24, seconds: 1 });
    await ctx.book(f, { start_at: nextStart() });
    await ctx.engine.runOnce();
    const after = r.received.at(-1)!;
    expect(after.signature.split(' ')).toHaveLength(1);
    expect(() => new Webhook(rotated.secret).verify(after.body, after.headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(f.endpoint.secret).verify(after.body, after.headers as Record<string, string>)).toThrow();
  });

  it('sends only the event types and the venue an endpoint asked for', async () => {
    const r = await receiver();
    const f = await ctx.venueWithEndpoint(r.url, { events: 'booking.cancelled' });
    const booking = await ctx.book(f, { start_at: nextStart() });
    await ctx.engine.runOnce();
    expect(r.received).toEqual([]);
    await webhookEndpoints.addEndpoint(ctx.db, ctx.vault, {
      orgSlug: f.organisation.slug,
      url: r.url,
      venueSlug: f.venue.slug,
      allowPrivateNetworks: true,
    });
    const { cancelBooking } = await import('../../src/bookings/cancel-booking.js');
    await cancelBooking({
      db: ctx.db,
      principal: {
        keyId: 'x',
        organisationId: f.organisation.id,
        venueId: null,
        scopes: new Set(),
        rateLimitPerMin: null,
      },
      bookingRef: booking.id,
      body: { reason: 'test', cancelled_by: 'partner' },
      now: ctx.clock.now(),
    });
    await ctx.engine.runOnce();
    // Both endpoints want the cancellation (one by type, one by venue); the venue endpoint came after the create.
    expect(r.received.map((x) => JSON.parse(x.body).type)).toEqual(['booking.cancelled', 'booking.cancelled']);
    await expect(
      webhookEndpoints.addEndpoint(ctx.db, ctx.vault, {
        orgSlug: f.organisation.slug,
        url: r.url,
        events: 'booking.created,booking.updated',
        allowPrivateNetworks: true,
      }),
    ).rejects.toThrow('Unknown event type booking.updated; the types are booking.created, booking.awaiting_therapist');
  });

  it('replays an event with its webhook-id to the endpoints that want it', async () => {
    const r = await receiver();
    const f = await ctx.venueWithEndpoint(r.url);
    await ctx.book(f, { start_at: nextStart() });
    await ctx.engine.runOnce();
    const [first] = r.received;
    expect(await webhookEndpoints.replay(ctx.db, first!.id, { now: ctx.clock.now() })).toMatchObject({ queued: 1 });
    await ctx.engine.runOnce();
    expect(r.received.map((x) => [x.id, x.body])).toEqual([
      [first!.id, first!.body],
      [first!.id, first!.body],
    ]);
    await expect(webhookEndpoints.replay(ctx.db, '00000000-0000-4000-8000-000000000000')).rejects.toThrow(
      'No webhook event 00000000-0000-4000-8000-000000000000',
    );
  });

  it('disables an endpoint after 5 days without a success; list shows it, and it gets no new deliveries', async () => {
    const r = await receiver();
    const f = await ctx.venueWithEndpoint(r.url);
    const failing = createWebhookEngine({
      db: ctx.db,
      clock: ctx.clock,
      vault: ctx.vault,
      config: { retrySchedule: [], allowPrivateNetworks: true },
    });
    r.answer(...Array.from({ length: 50 }, () => ({ status: 500 })));
    await ctx.book(f, { start_at: nextStart() });
    await failing.runOnce();
    ctx.clock.advance({ days: 4, hours: 23 });
    await ctx.book(f, { start_at: nextStart() });
    await failing.runOnce();
    expect((await webhookEndpoints.listEndpoints(ctx.db, f.organisation.slug))[0]!.disabled_at).toBeNull();
    ctx.clock.advance({ hours: 1 });
    await ctx.book(f, { start_at: nextStart() });
    await failing.runOnce();
    const [listed] = await webhookEndpoints.listEndpoints(ctx.db, f.organisation.slug);
    expect(listed!.disabled_at).not.toBeNull();
    expect(listed!.last_success_at).toBeNull();
    const deliveries = () =>
      ctx.db.selectFrom('webhook_deliveries').select('status').where('endpoint_id', '=', f.endpoint.id).execute();
    const whileDisabled = await deliveries();
    expect(whileDisabled.every((d) => d.status === 'failed')).toBe(true);
    await ctx.book(f, { start_at: nextStart() });
    await failing.runOnce();
    expect(await deliveries()).toHaveLength(whileDisabled.length);

    r.reset();
    await webhookEndpoints.enableEndpoint(ctx.db, f.endpoint.id);
    const received = r.received.length;
    await ctx.book(f, { start_at: nextStart() });
    await failing.runOnce();
    expect(r.received).toHaveLength(received + 1);
    const [enabled] = await webhookEndpoints.listEndpoints(ctx.db, f.organisation.slug);
    expect([enabled!.disabled_at, enabled!.failing_since, enabled!.last_success_at !== null]).toEqual([
      null,
      null,
      true,
    ]);
  });

  it('allows at most 10 endpoints per organisation', async () => {
    const r = await receiver();
    const f = await ctx.venueWithEndpoint(r.url);
    for (let i = 1; i < 10; i++)
      await webhookEndpoints.addEndpoint(ctx.db, ctx.vault, {
        orgSlug: f.organisation.slug,
        url: r.url,
        allowPrivateNetworks: true,
      });
    await expect(
      webhookEndpoints.addEndpoint(ctx.db, ctx.vault, {
        orgSlug: f.organisation.slug,
        url: r.url,
        allowPrivateNetworks: true,
      }),
    ).rejects.toThrow(
      `Organisation ${f.organisation.slug} already has 10 webhook endpoints, the most it may have; remove one first`,
    );
    await webhookEndpoints.removeEndpoint(ctx.db, f.endpoint.id);
    await expect(
      webhookEndpoints.addEndpoint(ctx.db, ctx.vault, {
        orgSlug: f.organisation.slug,
        url: r.url,
        allowPrivateNetworks: true,
      }),
    ).resolves.toMatchObject({ secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
  });
});
