import request from 'supertest';
import { expect } from 'vitest';
import { createWebhookEngine, webhookEndpoints, type WebhookEngineOptions } from '../../src/webhooks/index.js';
import { WebhookMetrics } from '../../src/webhooks/metrics.js';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { createTestContext } from '../support/test-app.js';
import { runningClock } from './receiver.js';

/** Where the tests' clock starts: before every booking they make. */
export const START = '2026-11-22T08:00:00Z';

/**
 * The test context (support/test-app.ts) with a webhook engine over its database, sharing a clock that runs from
 * START (so retries fall due in real time) and that a test can move forward. The engine is driven by the test
 * (`runOnce`) or started.
 */
export async function createWebhookContext(engineOptions: Partial<WebhookEngineOptions> = {}) {
  const ctx = await createTestContext({ clock: runningClock(START) });
  const { db, app, vault, clock } = ctx;
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
    db,
    app,
    vault,
    clock,
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
      overrides: Record<string, unknown> = {},
    ) {
      const res = await request(app)
        .post(`/v1/venues/${f.venue.id}/bookings`)
        .set('Authorization', `Bearer ${f.key}`)
        .send(bookingBody(f.variant.id, overrides));
      expect(res.status).toBe(201);
      return res.body.data as { id: string; start_at: string; status: string; updated_at: string };
    },
    async read(f: { key: string }, bookingId: string) {
      const res = await request(app).get(`/v1/bookings/${bookingId}`).set('Authorization', `Bearer ${f.key}`);
      expect(res.status).toBe(200);
      return res.body.data as Record<string, unknown>;
    },
    async close() {
      await engine.stop();
      await ctx.close();
    },
  };
}
export type WebhookContext = Awaited<ReturnType<typeof createWebhookContext>>;
