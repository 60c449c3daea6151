import { beforeAll, describe, expect, it } from 'vitest';
import {
  makeApiKey,
  makeBooking,
  makeCustomer,
  makeOrganisation,
  makeTreatment,
  makeVenue,
} from '../support/factories.js';
import { setup } from '../support/test-app.js';
import { errorOf, expectStatus } from '../support/typed-api.js';
import { EVERY_DAY } from '../support/calendar.js';

describe('read endpoints (venues, treatments, customers)', () => {
  const ctx = setup();
  let world: Awaited<ReturnType<typeof build>>;

  async function build() {
    const org = await makeOrganisation(ctx.db);
    const venue = await makeVenue(ctx.db, org.id, {
      name: 'A Spa',
      slug: 'a-spa',
      venue_type: 'hotel',
      city: 'Paris',
      country: 'FR',
    });
    const second = await makeVenue(ctx.db, org.id, { name: 'B Spa', slug: 'b-spa' });
    await makeVenue(ctx.db, org.id, { name: 'C Archived', slug: 'c-archived', status: 'archived' });
    const treatment = await makeTreatment(ctx.db, venue.id, {
      name: 'Massage',
      category: 'massage',
      lead_time_minutes: 120,
      variants: [
        { name: '60 min', duration_minutes: 60, price_minor: 12050 },
        { name: '90 min', duration_minutes: 90, price_minor: 16500, is_default: false },
      ],
    });
    const claire = await makeCustomer(ctx.db, org.id, {
      first_name: 'Claire',
      last_name: 'Martin',
      email: 'Claire.Martin@Example.com',
    });
    const paul = await makeCustomer(ctx.db, org.id, { first_name: 'Paul', last_name: 'Durand' });
    const never = await makeCustomer(ctx.db, org.id, { first_name: 'Never', last_name: 'Booked' });
    const refs = (customerId: string, venueId = venue.id) => ({
      venueId,
      treatmentId: treatment.id,
      variantId: treatment.variant.id,
      customerId,
    });
    const older = await makeBooking(ctx.db, refs(claire.id), {
      start_at: '2026-09-01T09:00:00Z',
      end_at: '2026-09-01T10:00:00Z',
      status: 'completed',
    });
    const newer = await makeBooking(ctx.db, refs(claire.id), {
      start_at: '2026-10-01T09:00:00Z',
      end_at: '2026-10-01T10:00:00Z',
      status: 'cancelled',
      external_id: 'x-1',
    });
    await makeBooking(ctx.db, refs(paul.id), {});
    const secondTreatment = await makeTreatment(ctx.db, second.id);
    await makeBooking(ctx.db, {
      venueId: second.id,
      treatmentId: secondTreatment.id,
      variantId: secondTreatment.variant.id,
      customerId: never.id,
    });
    const { key } = await makeApiKey(ctx.db, ctx.vault, org.id);
    return { org, venue, second, treatment, claire, paul, never, older, newer, key };
  }

  beforeAll(async () => {
    world = await build();
  });

  /** The typed client as the world's key calls it. */
  const api = () => ctx.partner(world.key);

  it('lists active venues in the list shape with the pagination block', async () => {
    const res = await api().venues.list();
    expectStatus(res, 200);
    expect(res.body.pagination).toEqual({ page: 1, page_size: 20, total_items: 2, total_pages: 1 });
    expect(res.body.data.map((v) => v.slug)).toEqual(['a-spa', 'b-spa']);
    expect(Object.keys(res.body.data[0]!).sort()).toEqual(
      [
        'address',
        'city',
        'country',
        'cover_image',
        'currency',
        'description',
        'description_en',
        'id',
        'image',
        'name',
        'name_en',
        'postal_code',
        'slug',
        'timezone',
        'venue_type',
      ].sort(),
    );
  });

  it('pages venues and answers an empty page past the end', async () => {
    const page2 = await api().venues.list({ query: { page: '2', page_size: '1' } });
    expect(page2.body).toMatchObject({
      data: [{ slug: 'b-spa' }],
      pagination: { page: 2, page_size: 1, total_items: 2, total_pages: 2 },
    });
    const past = await api().venues.list({ query: { page: '9', page_size: '1' } });
    expect(past.body).toEqual({ data: [], pagination: { page: 9, page_size: 1, total_items: 2, total_pages: 2 } });
  });

  it('rejects page and page_size outside their bounds or not integers', async () => {
    for (const [name, value, message] of [
      ['page', '0', 'page must be an integer of at least 1'],
      ['page', '-1', 'page must be an integer of at least 1'],
      ['page', '1.5', 'page must be an integer of at least 1'],
      ['page_size', '0', 'page_size must be an integer from 1 to 100'],
      ['page_size', '101', 'page_size must be an integer from 1 to 100'],
      ['page_size', 'ten', 'page_size must be an integer from 1 to 100'],
    ] as const) {
      const res = await api().venues.list({ query: { [name]: value } });
      expect([res.status, errorOf(res)], `${name}=${value}`).toEqual([400, message]);
      expectStatus(res, 400);
      expect(res.body.details?.[0]?.path).toBe(name);
    }
    expect((await api().venues.list({ query: { page_size: '100' } })).status).toBe(200);
  });

  it('returns the detail shape by UUID and by slug', async () => {
    const byId = await api().venues.get({ params: { venue_id: world.venue.id } });
    const bySlug = await api().venues.get({ params: { venue_id: 'a-spa' } });
    expectStatus(byId, 200);
    expect(bySlug.body).toEqual(byId.body);
    expect(byId.body.data).toMatchObject({
      id: world.venue.id,
      slug: 'a-spa',
      status: 'active',
      venue_type: 'hotel',
      vat: 20,
      opening_time: '09:00:00',
      closing_time: '18:00:00',
      slot_interval: 30,
      schedule_type: 'recurring',
      days_of_week: EVERY_DAY,
      recurrence_interval: 1,
      recurring_start_date: '2026-01-01',
      recurring_end_date: null,
      offert: false,
      booking_hold_enabled: false,
      allow_out_of_hours_booking: false,
      landing_subtitle: null,
      room_turnover_buffer_minutes: 0,
      inter_venue_buffer_minutes: 0,
    });
    expect(byId.body.data.cancellation_policy.partner[0]).toEqual({ min_hours_before: 24, fee_percent: 0 });
    expect(byId.body.data).not.toHaveProperty('treatments');
  });

  it('answers 404 Venue not found for an unknown slug or UUID and for an inactive venue', async () => {
    for (const ref of ['nowhere', '00000000-0000-4000-8000-000000000000', 'c-archived']) {
      const res = await api().venues.get({ params: { venue_id: ref } });
      expect([res.status, errorOf(res)], ref).toEqual([404, 'Venue not found']);
    }
  });

  it('lists treatments with variants and money in major units', async () => {
    const res = await api().treatments.list({ params: { venue_id: 'a-spa' } });
    expectStatus(res, 200);
    expect(res.body.data).toEqual([
      {
        id: world.treatment.id,
        name: 'Massage',
        name_en: null,
        description: null,
        description_en: null,
        category: 'massage',
        lead_time_minutes: 120,
        variants: [
          {
            id: world.treatment.variants[0]!.id,
            name: '60 min',
            duration_minutes: 60,
            price: { amount: 120.5, currency: 'EUR' },
            is_default: true,
          },
          {
            id: world.treatment.variants[1]!.id,
            name: '90 min',
            duration_minutes: 90,
            price: { amount: 165, currency: 'EUR' },
            is_default: false,
          },
        ],
      },
    ]);
  });

  it('lists the customers with at least one booking at the venue, filtered by email case-insensitively', async () => {
    const res = await api().customers.list({ params: { venue_id: 'a-spa' } });
    expectStatus(res, 200);
    expect(res.body.data.map((c) => c.id)).toEqual([world.paul.id, world.claire.id]); // by last name
    expect(res.body.pagination.total_items).toBe(2);
    const filtered = await api().customers.list({
      params: { venue_id: 'a-spa' },
      query: { email: 'claire.martin@example.COM' },
    });
    expectStatus(filtered, 200);
    expect(filtered.body.data).toEqual([
      {
        id: world.claire.id,
        first_name: 'Claire',
        last_name: 'Martin',
        email: 'Claire.Martin@Example.com',
        phone: null,
        language: 'fr',
        created_at: expect.stringMatching(/Z$/),
      },
    ]);
  });

  it("lists one customer's bookings at that venue only, newest first, in the full booking shape", async () => {
    const params = { venue_id: 'a-spa', customer_id: world.claire.id };
    const res = await api().customers.bookings({ params });
    expectStatus(res, 200);
    expect(res.body.data.map((b) => b.id)).toEqual([world.newer.id, world.older.id]);
    expect(res.body.data[0]).toEqual({
      id: world.newer.id,
      booking_number: expect.any(Number),
      status: 'cancelled',
      venue_id: world.venue.id,
      treatment_id: world.treatment.id,
      variant_id: world.treatment.variant.id,
      customer_id: world.claire.id,
      start_at: '2026-10-01T09:00:00Z',
      end_at: '2026-10-01T10:00:00Z',
      guest_count: 1,
      therapists_accepted: 0,
      notes: null,
      external_reference: null,
      external_id: 'x-1',
      client_type: 'external',
      total_price: { amount: 90, currency: 'EUR' },
      payment_method: 'partner_billed',
      payment_status: 'paid',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      cancellation: null,
    });
    const paged = await api().customers.bookings({ params, query: { page: '2', page_size: '1' } });
    expectStatus(paged, 200);
    expect(paged.body.data.map((b) => b.id)).toEqual([world.older.id]);
  });

  it('answers 404 Customer not found in this venue for an unknown customer or one who never booked there', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', world.never.id]) {
      const res = await api().customers.bookings({ params: { venue_id: 'a-spa', customer_id: id } });
      expect([res.status, errorOf(res)]).toEqual([404, 'Customer not found in this venue']);
    }
    const malformed = await api().customers.bookings({ params: { venue_id: 'a-spa', customer_id: 'not-a-uuid' } });
    expect([malformed.status, errorOf(malformed)]).toEqual([400, 'customer_id must be a UUID']);
  });
});
