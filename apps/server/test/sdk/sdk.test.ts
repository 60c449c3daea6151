import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPartnerClient } from '@spa/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey, makeOrganisation, makeVenue } from '../support/factories.js';
import { createTestContext, type TestContext } from '../support/test-app.js';

describe('the SDK against the running app', () => {
  let ctx: TestContext;
  let server: Server;
  let baseUrl: string;
  let fixture: Awaited<ReturnType<typeof makeBookableVenue>>;

  beforeAll(async () => {
    ctx = await createTestContext();
    server = ctx.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    fixture = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 1, therapists: 1 });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await ctx.close();
  });

  it('reads venues, a venue and its treatments, typed', async () => {
    const client = createPartnerClient({ baseUrl, apiKey: fixture.key });
    const venues = await client.listVenues();
    expect(venues.ok && venues.data.map((v) => v.slug)).toEqual([fixture.venue.slug]);
    const venue = await client.getVenue(fixture.venue.slug);
    expect(venue.ok && venue.data.slot_interval).toBe(30);
    const treatments = await client.listTreatments(fixture.venue.id);
    expect(treatments.ok && treatments.data[0]!.variants[0]!.price).toEqual({ amount: 90, currency: 'EUR' });
  });

  it('gives errors with the API code, missing scopes and the request id', async () => {
    const client = createPartnerClient({ baseUrl, apiKey: fixture.key });
    const missing = await client.getVenue('no-such-venue');
    expect(missing.ok).toBe(false);
    if (!missing.ok) {
      expect(missing.error.status).toBe(404);
      expect(missing.error.code).toBe('Venue not found');
      expect(missing.error.requestId).toMatch(/.+/);
    }
    const { key } = await makeApiKey(ctx.db, ctx.vault, fixture.organisation.id, { scopes: ['venues:read'] });
    const scoped = await createPartnerClient({ baseUrl, apiKey: key }).listTreatments(fixture.venue.id);
    expect(!scoped.ok && [scoped.error.code, scoped.error.missing]).toEqual(['Insufficient scope', ['treatments:read']]);
    const bad = await createPartnerClient({ baseUrl, apiKey: 'sk_live_nope' }).listVenues();
    expect(!bad.ok && bad.error.code).toBe('Invalid or revoked API key');
  });

  it('walks every page of a list', async () => {
    const organisation = await makeOrganisation(ctx.db);
    for (let i = 0; i < 103; i++) await makeVenue(ctx.db, organisation.id, { slug: `walk-${String(i).padStart(3, '0')}`, name: `Walk ${String(i).padStart(3, '0')}` });
    const { key } = await makeApiKey(ctx.db, ctx.vault, organisation.id);
    const slugs: string[] = [];
    for await (const venue of createPartnerClient({ baseUrl, apiKey: key }).iterate.venues()) slugs.push(venue.slug);
    expect(slugs).toHaveLength(103);
    expect(new Set(slugs).size).toBe(103);
  });

  it('books, replays with the same external_id, reports slot_unavailable, and cancels by ext:', async () => {
    const client = createPartnerClient({ baseUrl, apiKey: fixture.key });
    const body = bookingBody(fixture.variant.id, { start_at: '2026-11-26T09:00:00Z', external_id: 'sdk-1' });
    const created = await client.createBooking(fixture.venue.id, body);
    expect(created.ok && [created.status, created.replayed, created.data.status]).toEqual([201, false, 'pending']);
    const replay = await client.createBooking(fixture.venue.id, body);
    expect(replay.ok && [replay.status, replay.replayed]).toEqual([200, true]);
    const taken = await client.createBooking(fixture.venue.id, { ...body, external_id: 'sdk-2' });
    expect(!taken.ok && taken.error.code).toBe('slot_unavailable');
    const cancelled = await client.cancelBooking('ext:sdk-1', { reason: 'guest ill', cancelled_by: 'customer' });
    expect(cancelled.ok && cancelled.data.status).toBe('cancelled');
    const again = await client.cancelBooking('ext:sdk-1', { reason: 'again', cancelled_by: 'partner' });
    expect(!again.ok && [again.error.status, again.error.code]).toEqual([422, 'BOOKING_ALREADY_CANCELLED']);
  });

  describe('retries', () => {
    /** A fetch that fails with a network error `failures` times, then passes through; counts calls. */
    const flaky = (failures: number) => {
      let calls = 0;
      const wrapped = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
        calls++;
        if (calls <= failures) throw new TypeError('fetch failed');
        return fetch(input, init);
      }) as typeof fetch;
      return { fetch: wrapped, calls: () => calls };
    };
    const fast = { attempts: 4, baseDelayMs: 1 };

    it('retries a create that carries an external_id after network errors, and gets one booking', async () => {
      const net = flaky(2);
      const client = createPartnerClient({ baseUrl, apiKey: fixture.key, fetch: net.fetch, retry: fast });
      const created = await client.createBooking(fixture.venue.id, bookingBody(fixture.variant.id, { start_at: '2026-11-27T09:00:00Z', external_id: 'sdk-retry' }));
      expect(created.ok && created.status).toBe(201);
      expect(net.calls()).toBe(3);
    });

    it('does not retry a create without external_id', async () => {
      const net = flaky(1);
      const client = createPartnerClient({ baseUrl, apiKey: fixture.key, fetch: net.fetch, retry: fast });
      await expect(client.createBooking(fixture.venue.id, bookingBody(fixture.variant.id, { start_at: '2026-11-27T11:00:00Z' }))).rejects.toThrow('fetch failed');
      expect(net.calls()).toBe(1);
    });

    it('retries reads, and never retries a 4xx', async () => {
      const net = flaky(1);
      const client = createPartnerClient({ baseUrl, apiKey: fixture.key, fetch: net.fetch, retry: fast });
      expect((await client.listVenues()).ok).toBe(true);
      expect(net.calls()).toBe(2);
      const missing = await client.getVenue('nowhere');
      expect(!missing.ok && missing.error.status).toBe(404);
      expect(net.calls()).toBe(3);
    });
  });
});
