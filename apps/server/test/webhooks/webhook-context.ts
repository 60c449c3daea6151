import { createWebhookEngine, webhookEndpoints, type WebhookEngineOptions } from '../../src/webhooks/index.js';
import { WebhookMetrics } from '../../src/webhooks/metrics.js';
import { bookingBody, type CreateBody, makeBookableVenue } from '../support/booking-fixture.js';
import { createTestContext } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';
import { runningClock } from './receiver.js';

/** Where the tests' clock starts: before every booking they make. */
export const START = '2026-11-22T08:00:00Z';

/**
 * The one test context (support/test-app.ts), extended with a webhook engine over its database, sharing a clock that runs from
 * START (so retries fall due in real time) and that a test can move forward. The engine is driven by the test
 * (`runOnce`) or started.
 */
export async function createWebhookContext(engineOptions: Partial<WebhookEngineOptions> = {}) {
  const ctx = await createTestContext({ clock: runningClock(START) });
  const { db, vault, clock } = ctx;
  const metrics = new WebhookMetrics();
  const engine = createWebhookEngine({
    db,
    clock,
    vault,
    config: { retrySchedule: [1, 1], allowPrivateNetworks: true },
    metrics,
    pollIntervalMs: 50,
    ...engineOptions,
  });
  return {
    ...ctx,
    engine,
    metrics,
    /** A bookable venue with a webhook endpoint to `url`; returns the venue fixture and the endpoint's secret. */
    async venueWithEndpoint(url: string, options: { events?: string; therapists?: number } = {}) {
      const f = await makeBookableVenue(db, vault, { therapists: options.therapists ?? 2, rooms: 2 });
      const endpoint = await webhookEndpoints.addEndpoint(db, vault, {
        orgSlug: f.organisation.slug,
        url,
        events: options.events,
        allowPrivateNetworks: true,
      });
      return { ...f, endpoint };
    },
    async book(
      f: { venue: { id: string }; variant: { id: string }; key: string },
      overrides: Partial<CreateBody> = {},
    ) {
      const res = await ctx.v1.book(f.venue.id, bookingBody(f.variant.id, overrides), f.key);
      expectStatus(res, 201);
      return res.body.data;
    },
    async read(f: { key: string }, bookingId: string) {
      const res = await ctx.v1.booking(bookingId, f.key);
      expectStatus(res, 200);
      return res.body.data;
    },
    async close() {
      await engine.stop();
      await ctx.close();
    },
  };
}
export type WebhookContext = Awaited<ReturnType<typeof createWebhookContext>>;
