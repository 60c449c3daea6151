import { beforeAll, describe, expect, it } from 'vitest';
import { error } from '../support/api.js';
import {
  makeApiKey,
  makeBooking,
  makeCustomer,
  makeOrganisation,
  makeTreatment,
  makeVenue,
} from '../support/factories.js';
import { setup } from '../support/test-app.js';

describe('GET /v1/bookings', () => {
  const ctx = setup();
  let world: Awaited<ReturnType<typeof build>>;

  async function build() {
    const org = await makeOrganisation(ctx.db);
    const paris = await makeVenue(ctx.db, org.id, { slug: 'paris' });
    const lyon = await makeVenue(ctx.db, org.id, { slug: 'lyon' });
    const parisTreatment = await makeTreatment(ctx.db, paris.id);
    const lyonTreatment = await makeTreatment(ctx.db, lyon.id);
    const claire = await makeCustomer(ctx.db, org.id, { email: 'claire@example.com' });
    const paul = await makeCustomer(ctx.db, org.id, { email: 'paul@example.com' });
    const at = (venue: typeof paris, customerId: string) => {
      const treatment = venue === paris ? parisTreatment : lyonTreatment;
      return { venueId: venue.id, treatmentId: treatment.id, variantId: treatment.variant.id, customerId };
    };
    const booking = (venue: typeof paris, customerId: string, start: string, extra: object = {}) =>
      makeBooking(ctx.db, at(venue, customerId), {
        start_at: start,
        end_at: new Date(Date.parse(start) + 3_600_000).toISOString(),
        ...extra,
      });
    // Created out of start order, two at the same start (ordered by id then).
    const b3 = await booking(lyon, paul.id, '2026-12-03T09:00:00Z', {
      status: 'confirmed',
      updated_at: '2026-11-21T10:00:00Z',
    });
    const b1 = await booking(paris, claire.id, '2026-12-01T09:00:00Z', {
      status: 'pending',
      external_id: 'pms-1',
      updated_at: '2026-11-20T10:00:00Z',
    });
    const b2a = await booking(paris, paul.id, '2026-12-02T09:00:00Z', {
      status: 'cancelled',
      updated_at: '2026-11-22T07:00:00Z',
    });
    const b2b = await booking(lyon, claire.id, '2026-12-02T09:00:00Z', {
      status: 'completed',
      external_id: 'pms-1',
      updated_at: '2026-11-19T10:00:00Z',
    });
    const [first2, second2] = [b2a, b2b].sort((a, b) => a.id.localeCompare(b.id));
    // Another organisation's booking is never listed.
    const other = await makeOrganisation(ctx.db);
    const otherVenue = await makeVenue(ctx.db, other.id, { slug: 'other' });
    const otherTreatment = await makeTreatment(ctx.db, otherVenue.id);
    const otherCustomer = await makeCustomer(ctx.db, other.id);
    await makeBooking(ctx.db, {
      venueId: otherVenue.id,
      treatmentId: otherTreatment.id,
      variantId: otherTreatment.variant.id,
      customerId: otherCustomer.id,
    });
    const { key } = await makeApiKey(ctx.db, ctx.vault, org.id);
    const { key: parisKey } = await makeApiKey(ctx.db, ctx.vault, org.id, { venueId: paris.id });
    const { key: noRead } = await makeApiKey(ctx.db, ctx.vault, org.id, { scopes: ['venues:read'] });
    return {
      paris,
      lyon,
      otherVenue,
      claire,
      paul,
      key,
      parisKey,
      noRead,
      ordered: [b1.id, first2!.id, second2!.id, b3.id],
      b1,
      b2a,
      b2b,
      b3,
    };
  }

  beforeAll(async () => {
    world = await build();
  });

  const list = (query: string, key: string | null = world.key) => ctx.api.get(`/v1/bookings${query}`, key);
  const ids = (body: { data: { id: string }[] }) => body.data.map((b) => b.id);

  it('lists every booking of the organisation by start, then id, with the pagination block', async () => {
    const res = await ctx.partner(world.key).bookings.list({ query: {} });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(ids(res.body)).toEqual(world.ordered);
    expect(res.body.pagination).toEqual({ page: 1, page_size: 20, total_items: 4, total_pages: 1 });
    expect(res.body.data[0]).toMatchObject({ id: world.b1.id, status: 'pending', external_id: 'pms-1' });
  });

  it('pages with page and page_size, and a page past the end is empty with the same block', async () => {
    const second = await list('?page=2&page_size=3');
    expect(second.status).toBe(200);
    expect(ids(second.body)).toEqual([world.ordered[3]]);
    expect(second.body.pagination).toEqual({ page: 2, page_size: 3, total_items: 4, total_pages: 2 });
    const past = await list('?page=9&page_size=3');
    expect(past.body).toEqual({ data: [], pagination: { page: 9, page_size: 3, total_items: 4, total_pages: 2 } });
  });

  it('filters by venue (UUID or slug), status list, start range, updated_since, customer and external id', async () => {
    expect(ids((await list(`?venue_id=${world.paris.id}`)).body)).toEqual([world.b1.id, world.b2a.id]);
    expect(ids((await list('?venue_id=lyon')).body)).toEqual(
      [world.b2b.id, world.b3.id].sort((a, b) => world.ordered.indexOf(a) - world.ordered.indexOf(b)),
    );
    expect(ids((await list('?status=pending,confirmed')).body)).toEqual([world.b1.id, world.b3.id]);
    expect(ids((await list('?status=cancelled')).body)).toEqual([world.b2a.id]);
    // start_from inclusive, start_to exclusive; any offset.
    expect(ids((await list('?start_from=2026-12-02T10:00:00%2B01:00&start_to=2026-12-03T09:00:00Z')).body)).toEqual(
      world.ordered.slice(1, 3),
    );
    expect(ids((await list('?updated_since=2026-11-21T10:00:00Z')).body)).toEqual([world.b2a.id, world.b3.id]);
    expect(ids((await list(`?customer_id=${world.claire.id.toUpperCase()}`)).body)).toEqual([
      world.b1.id,
      world.b2b.id,
    ]);
    expect(ids((await list('?external_id=pms-1')).body)).toEqual([world.b1.id, world.b2b.id]);
    const combined = await list(`?external_id=pms-1&venue_id=paris&status=pending`);
    expect(ids(combined.body)).toEqual([world.b1.id]);
    expect(combined.body.pagination.total_items).toBe(1);
  });

  it('shows a venue-restricted key only its venue, and refuses it another venue with 403', async () => {
    expect(ids((await list('', world.parisKey)).body)).toEqual([world.b1.id, world.b2a.id]);
    expect(ids((await list('?external_id=pms-1', world.parisKey)).body)).toEqual([world.b1.id]);
    const lyon = await list(`?venue_id=${world.lyon.id}`, world.parisKey);
    expect(lyon.status).toBe(403);
    expect(lyon.body).toEqual(error('Forbidden'));
  });

  it("answers 403 Forbidden for another organisation's venue and 404 for an unknown one", async () => {
    const other = await list(`?venue_id=${world.otherVenue.id}`);
    expect([other.status, other.body]).toEqual([403, error('Forbidden')]);
    const unknown = await list('?venue_id=nowhere');
    expect([unknown.status, unknown.body]).toEqual([404, error('Venue not found')]);
  });

  it('needs bookings:read', async () => {
    const res = await list('', world.noRead);
    expect([res.status, res.body]).toEqual([403, error('Insufficient scope', { missing: ['bookings:read'] })]);
    const none = await list('', null);
    expect([none.status, none.body]).toEqual([401, error('Missing API key')]);
  });

  it.each([
    [
      '?status=pending,lost',
      'status',
      'status must be a comma-separated list of pending, awaiting_therapist, confirmed, completed, no_show, cancelled',
    ],
    [
      '?status=',
      'status',
      'status must be a comma-separated list of pending, awaiting_therapist, confirmed, completed, no_show, cancelled',
    ],
    ['?start_from=2026-12-01', 'start_from', 'start_from must be an ISO 8601 instant with an offset or Z'],
    ['?start_to=2026-12-01T09:00:00', 'start_to', 'start_to must be an ISO 8601 instant with an offset or Z'],
    ['?updated_since=yesterday', 'updated_since', 'updated_since must be an ISO 8601 instant with an offset or Z'],
    [
      '?start_from=2026-12-02T00:00:00Z&start_to=2026-12-01T00:00:00Z',
      'start_to',
      'start_to must not be before start_from',
    ],
    ['?customer_id=claire', 'customer_id', 'customer_id must be a UUID'],
    ['?external_id=', 'external_id', 'external_id must not be empty'],
    [`?external_id=${'x'.repeat(201)}`, 'external_id', 'external_id must be at most 200 characters'],
    ['?page=0', 'page', 'page must be an integer of at least 1'],
    ['?page_size=101', 'page_size', 'page_size must be an integer from 1 to 100'],
    ['?page_size=2.5', 'page_size', 'page_size must be an integer from 1 to 100'],
    ['?venue_id=', 'venue_id', 'venue_id must not be empty'],
  ])('answers 400 for %s', async (query, path, message) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(message, { details: [{ path, message }] }));
  });
});
