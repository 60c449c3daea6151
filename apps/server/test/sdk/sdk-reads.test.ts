import type { Server } from 'node:http';
import { createPartnerClient, ErrorCode, isRangeAvailability, paginate, type PartnerClient } from '@spa/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey, makeBooking, makeCustomer, makeOrganisation, makeVenue } from '../support/factories.js';
import { listen } from '../support/listen.js';
import { setup } from '../support/test-app.js';

describe('the SDK reads, against the running app', () => {
  const ctx = setup();
  let server: Server;
  let baseUrl: string;
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  let claire: Awaited<ReturnType<typeof makeCustomer>>;
  let client: PartnerClient;

  beforeAll(async () => {
    ({ server, baseUrl } = await listen(ctx));
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 1, therapists: 1 });
    claire = await makeCustomer(ctx.db, f.organisation.id, { first_name: 'Claire', last_name: 'Martin' });
    const refs = { venueId: f.venue.id, treatmentId: f.treatment.id, variantId: f.variant.id, customerId: claire.id };
    for (let day = 1; day <= 5; day++) {
      await makeBooking(ctx.db, refs, { start_at: `2026-10-0${day}T09:00:00Z`, end_at: `2026-10-0${day}T10:00:00Z` });
    }
    client = createPartnerClient({ baseUrl, apiKey: f.key });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('lists venues with data and the pagination block', async () => {
    const venues = await client.listVenues({ page: 1, page_size: 10 });
    expect(venues.ok).toBe(true);
    if (!venues.ok) return;
    expect([venues.status, venues.replayed]).toEqual([200, false]);
    expect(venues.data.map((v) => [v.slug, v.venue_type, v.currency])).toEqual([[f.venue.slug, 'spa', 'EUR']]);
    expect(venues.pagination).toEqual({ page: 1, page_size: 10, total_items: 1, total_pages: 1 });
  });

  it('gets a venue in the detail shape, by slug and by id', async () => {
    for (const ref of [f.venue.slug, f.venue.id]) {
      const venue = await client.getVenue(ref);
      expect(
        venue.ok && [venue.data.id, venue.data.slot_interval, venue.data.opening_time, venue.data.timezone],
      ).toEqual([f.venue.id, 30, '09:00:00', 'Europe/Paris']);
    }
  });

  it('lists treatments with their variants and prices in major units', async () => {
    const treatments = await client.listTreatments(f.venue.slug);
    expect(
      treatments.ok &&
        treatments.data.map((t) => t.variants.map((v) => [v.id, v.duration_minutes, v.price, v.is_default])),
    ).toEqual([[[f.variant.id, 60, { amount: 90, currency: 'EUR' }, true]]]);
  });

  it('lists customers, filtered by email', async () => {
    const all = await client.listCustomers(f.venue.slug);
    expect(all.ok && all.data.map((c) => c.id)).toEqual([claire.id]);
    const none = await client.listCustomers(f.venue.slug, { email: 'nobody@example.com' });
    expect(none.ok && [none.data, none.pagination.total_items]).toEqual([[], 0]);
  });

  it("lists a customer's bookings newest first", async () => {
    const bookings = await client.listCustomerBookings(f.venue.slug, claire.id, { page_size: 2 });
    expect(bookings.ok && bookings.data.map((b) => b.start_at)).toEqual([
      '2026-10-05T09:00:00Z',
      '2026-10-04T09:00:00Z',
    ]);
    expect(bookings.ok && bookings.pagination).toEqual({ page: 1, page_size: 2, total_items: 5, total_pages: 3 });
  });

  it('reads variant availability in day mode and in range mode', async () => {
    const day = await client.getVariantAvailability(f.venue.slug, f.variant.id, { date: '2026-11-25' });
    expect(day.ok).toBe(true);
    if (!day.ok || isRangeAvailability(day.data)) throw new Error('expected day mode');
    expect(day.data.slots[0]).toEqual({
      time: '08:00',
      local_time: '09:00',
      start_at: '2026-11-25T08:00:00Z',
      end_at: '2026-11-25T09:00:00Z',
      out_of_hours: false,
      available_capacity: 1,
    });
    const range = await client.getVariantAvailability(f.venue.slug, f.variant.id, {
      from: '2026-11-25',
      to: '2026-11-27',
      guest_count: 1,
    });
    expect(range.ok && isRangeAvailability(range.data) && range.data.days.map((d) => d.date)).toEqual([
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
    ]);
  });

  describe('errors', () => {
    it('gives 401 Invalid or revoked API key for a key the API does not know', async () => {
      // A missing key never reaches the API: createPartnerClient refuses it (sdk-transport.test.ts).
      const invalid = await createPartnerClient({ baseUrl, apiKey: 'sk_live_abc_def' }).listVenues();
      expect(!invalid.ok && [invalid.error.status, invalid.error.code]).toEqual([401, 'Invalid or revoked API key']);
    });

    it('gives 403 Insufficient scope with the missing scopes', async () => {
      const { key } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { scopes: ['venues:read'] });
      const scoped = await createPartnerClient({ baseUrl, apiKey: key }).listCustomerBookings(f.venue.id, claire.id);
      expect(!scoped.ok && [scoped.error.status, scoped.error.code, scoped.error.missing]).toEqual([
        403,
        'Insufficient scope',
        ['bookings:read'],
      ]);
    });

    it('gives 403 Forbidden for a venue of another organisation, without missing', async () => {
      const other = await makeOrganisation(ctx.db);
      const { key } = await makeApiKey(ctx.db, ctx.vault, other.id);
      const forbidden = await createPartnerClient({ baseUrl, apiKey: key }).getVenue(f.venue.id);
      expect(!forbidden.ok && [forbidden.error.status, forbidden.error.code, forbidden.error.missing]).toEqual([
        403,
        'Forbidden',
        undefined,
      ]);
    });

    it('gives 404 with the exact texts for venue, customer and variant', async () => {
      const venue = await client.getVenue('no-such-venue');
      expect(!venue.ok && [venue.error.status, venue.error.code]).toEqual([404, 'Venue not found']);
      const customer = await client.listCustomerBookings(f.venue.id, '00000000-0000-4000-8000-000000000000');
      expect(!customer.ok && [customer.error.status, customer.error.code]).toEqual([
        404,
        'Customer not found in this venue',
      ]);
      const variant = await client.getVariantAvailability(f.venue.id, '00000000-0000-4000-8000-000000000000', {
        date: '2026-11-25',
      });
      expect(!variant.ok && [variant.error.status, variant.error.code]).toEqual([404, 'Variant not found']);
    });

    it('gives 400 with every field problem in details', async () => {
      const bad = await client.listVenues({ page: 0, page_size: 500 });
      expect(!bad.ok && [bad.error.status, bad.error.code, bad.error.text, bad.error.details]).toEqual([
        400,
        ErrorCode.InvalidRequest,
        'page must be an integer of at least 1',
        [
          { path: 'page', message: 'page must be an integer of at least 1' },
          { path: 'page_size', message: 'page_size must be an integer from 1 to 100' },
        ],
      ]);
    });

    it('carries the request id, the one sent when given', async () => {
      const traced = await client.getVenue('no-such-venue', { requestId: 'partner-trace-42' });
      expect(!traced.ok && [traced.error.requestId, traced.error.message]).toEqual([
        'partner-trace-42',
        '404 Venue not found (request partner-trace-42)',
      ]);
      const fresh = await client.getVenue('no-such-venue');
      expect(!fresh.ok && fresh.error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('encodes path segments, so an id cannot reach another route', async () => {
      const venue = await client.getVenue(`${f.venue.slug}/treatments`);
      expect(!venue.ok && [venue.error.status, venue.error.code]).toEqual([404, 'Venue not found']);
    });
  });

  describe('pagination', () => {
    it('walks every venue across pages of 100', async () => {
      const organisation = await makeOrganisation(ctx.db);
      for (let i = 0; i < 103; i++)
        await makeVenue(ctx.db, organisation.id, {
          slug: `walk-${String(i).padStart(3, '0')}`,
          name: `Walk ${String(i).padStart(3, '0')}`,
        });
      const { key } = await makeApiKey(ctx.db, ctx.vault, organisation.id);
      const slugs: string[] = [];
      for await (const venue of createPartnerClient({ baseUrl, apiKey: key }).iterate.venues()) slugs.push(venue.slug);
      expect(slugs).toEqual(Array.from({ length: 103 }, (_, i) => `walk-${String(i).padStart(3, '0')}`));
    });

    it("walks a customer's bookings page by page, one request per page", async () => {
      const pages: number[] = [];
      const starts: string[] = [];
      const walk = paginate((page) => {
        pages.push(page);
        return client.listCustomerBookings(f.venue.slug, claire.id, { page, page_size: 2 });
      });
      for await (const booking of walk) starts.push(booking.start_at);
      expect(pages).toEqual([1, 2, 3]);
      expect(starts).toEqual([5, 4, 3, 2, 1].map((d) => `2026-10-0${d}T09:00:00Z`));
    });

    it('walks customers with the email filter kept on every page', async () => {
      const walked = [];
      for await (const customer of client.iterate.customers(f.venue.id, { email: claire.email.toUpperCase() }))
        walked.push(customer.id);
      expect(walked).toEqual([claire.id]);
    });

    it('throws the PartnerApiError of a failing page', async () => {
      const walk = client.iterate.customerBookings('no-such-venue', claire.id);
      await expect(walk.next()).rejects.toMatchObject({
        name: 'PartnerApiError',
        status: 404,
        code: 'Venue not found',
      });
    });
  });
});
