import { Temporal } from 'temporal-polyfill';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OrganisationScope } from '../../src/auth/organisation-scope.js';
import {
  findScopedBooking,
  listBookingEvents,
  listEligibleTherapists,
} from '../../src/bookings/booking-detail.repository.js';
import { searchBookings } from '../../src/bookings/booking-search.repository.js';
import { acceptBooking } from '../../src/bookings/therapist-workflow.js';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { EVERY_DAY, makeBooking, makeCustomer, makeTherapist, makeTreatment, makeVenue } from '../support/factories.js';
import { expectStatus } from '../support/typed-api.js';
import { setup } from '../support/test-app.js';

const PAGE = { offset: 0, limit: 100 };

describe('dashboard booking queries, scoped by organisation and venue', () => {
  const ctx = setup();
  let a: Awaited<ReturnType<typeof makeBookableVenue>>;
  let second: { id: string; slug: string };
  let b: Awaited<ReturnType<typeof makeBookableVenue>>;
  const ids = { early: '', late: '', second: '', foreign: '' };
  let admin: OrganisationScope;
  let desk: OrganisationScope;

  beforeAll(async () => {
    a = await makeBookableVenue(ctx.db, ctx.vault, { therapists: 2, rooms: 2 });
    second = await makeVenue(ctx.db, a.organisation.id);
    const t2 = await makeTreatment(ctx.db, second.id);
    b = await makeBookableVenue(ctx.db, ctx.vault);
    const claire = await makeCustomer(ctx.db, a.organisation.id, {
      first_name: 'Claire',
      last_name: 'Dubois',
      email: 'claire.dubois@hotel.example',
    });
    const marc = await makeCustomer(ctx.db, a.organisation.id, {
      first_name: 'Marc',
      last_name: 'Lefèvre',
      email: 'marc@100%_sure.example',
    });
    const stranger = await makeCustomer(ctx.db, b.organisation.id, { first_name: 'Claire', last_name: 'Dubois' });
    const refs = (venue: { id: string }, t: { id: string; variant: { id: string } }, c: { id: string }) => ({
      venueId: venue.id,
      treatmentId: t.id,
      variantId: t.variant.id,
      customerId: c.id,
    });
    ids.early = (
      await makeBooking(ctx.db, refs(a.venue, a.treatment, claire), {
        start_at: '2026-10-01T09:00:00Z',
        end_at: '2026-10-01T10:00:00Z',
        external_id: 'PMS-0001',
      })
    ).id;
    ids.late = (
      await makeBooking(ctx.db, refs(a.venue, a.treatment, marc), {
        status: 'cancelled',
        start_at: '2026-10-03T09:00:00Z',
        end_at: '2026-10-03T10:00:00Z',
      })
    ).id;
    ids.second = (
      await makeBooking(ctx.db, refs(second, t2, claire), {
        start_at: '2026-10-02T09:00:00Z',
        end_at: '2026-10-02T10:00:00Z',
      })
    ).id;
    ids.foreign = (await makeBooking(ctx.db, refs(b.venue, b.treatment, stranger), { external_id: 'PMS-0001' })).id;
    admin = { organisationId: a.organisation.id, venueIds: null, livemode: true };
    desk = { organisationId: a.organisation.id, venueIds: [second.id], livemode: true };
  });

  const found = async (scope: OrganisationScope, search: Parameters<typeof searchBookings>[2] = {}) => {
    const { rows, total } = await searchBookings(ctx.db, scope, search, PAGE);
    expect(total).toBe(rows.length);
    return rows.map((r) => r.id);
  };

  it("lists an admin's organisation's bookings earliest start first, and never another organisation's", async () => {
    expect(await found(admin)).toEqual([ids.early, ids.second, ids.late]);
    expect(await found({ organisationId: b.organisation.id, venueIds: null, livemode: true })).toEqual([ids.foreign]);
  });

  it('shows a desk person only the bookings of their listed venues, and nothing with no venue listed', async () => {
    expect(await found(desk)).toEqual([ids.second]);
    expect(await found(desk, { venueId: a.venue.id })).toEqual([]);
    expect(await found({ organisationId: a.organisation.id, venueIds: [], livemode: true })).toEqual([]);
  });

  it('filters by venue, status and a range of days, inclusive, in the venue time zone', async () => {
    expect(await found(admin, { venueId: a.venue.id })).toEqual([ids.early, ids.late]);
    expect(await found(admin, { status: 'cancelled' })).toEqual([ids.late]);
    expect(await found(admin, { from: '2026-10-02', to: '2026-10-02' })).toEqual([ids.second]);
    expect(await found(admin, { from: '2026-10-02' })).toEqual([ids.second, ids.late]);
    expect(await found(admin, { to: '2026-10-02' })).toEqual([ids.early, ids.second]);
  });

  it('searches the customer name, email and external id, case-insensitively, wildcards taken literally', async () => {
    expect(await found(admin, { q: 'claire dub' })).toEqual([ids.early, ids.second]);
    expect(await found(admin, { q: 'LEFÈVRE' })).toEqual([ids.late]);
    expect(await found(admin, { q: '@hotel.example' })).toEqual([ids.early, ids.second]);
    expect(await found(admin, { q: 'pms-0001' })).toEqual([ids.early]);
    expect(await found(admin, { q: '100%_' })).toEqual([ids.late]);
    expect(await found(admin, { q: '%' })).toEqual([ids.late]);
    expect(await found(admin, { q: 'cl_ire' })).toEqual([]);
    expect(await found(admin, { q: 'claire', venueId: second.id })).toEqual([ids.second]);
  });

  it('pages with the total of every match', async () => {
    const page = await searchBookings(ctx.db, admin, {}, { offset: 1, limit: 1 });
    expect([page.rows.map((r) => r.id), page.total]).toEqual([[ids.second], 3]);
  });

  it('finds one booking only within the scope', async () => {
    expect((await findScopedBooking(ctx.db, admin, ids.second))?.venue_slug).toBe(second.slug);
    expect(await findScopedBooking(ctx.db, desk, ids.early)).toBeUndefined();
    expect(await findScopedBooking(ctx.db, admin, ids.foreign)).toBeUndefined();
    expect(
      await findScopedBooking(ctx.db, { organisationId: a.organisation.id, venueIds: [], livemode: true }, ids.second),
    ).toBe(undefined);
  });

  it('lists the offered therapists free to accept a pending booking, its events in order, and nobody once it is confirmed', async () => {
    const res = await ctx.v1.book(a.venue.id, bookingBody(a.variant.id, { start_at: '2026-11-25T09:00:00Z' }), a.key);
    expectStatus(res, 201);
    const pending = res.body.data;
    const names = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
    expect(names(await listEligibleTherapists(ctx.db, pending.id))).toEqual(names(a.therapists));

    // A therapist of the venue who took another booking at that time is no longer eligible.
    const other = await ctx.v1.book(
      a.venue.id,
      bookingBody(a.variant.id, { start_at: '2026-11-25T09:30:00Z', external_id: 'other' }),
      a.key,
    );
    expectStatus(other, 201);
    const [busy] = (
      await ctx.db
        .selectFrom('therapist_reservations')
        .select('therapist_id')
        .where('booking_id', '=', other.body.data.id)
        .execute()
    ).map((r) => r.therapist_id);
    expect((await listEligibleTherapists(ctx.db, pending.id)).map((t) => t.id)).toEqual(
      a.therapists.map((t) => t.id).filter((id) => id !== busy),
    );

    const free = (await listEligibleTherapists(ctx.db, pending.id))[0]!;
    // The creation's event carries the database's own time: acceptance comes after it on the same clock.
    await acceptBooking(ctx.db, { bookingId: pending.id, therapistId: free.id, now: Temporal.Now.instant() });
    expect(await listEligibleTherapists(ctx.db, pending.id)).toEqual([]);
    expect((await listBookingEvents(ctx.db, pending.id)).map((e) => e.type)).toEqual([
      'booking.created',
      'booking.confirmed',
    ]);
  });

  it('does not list a therapist who was never offered the booking, however free', async () => {
    const res = await ctx.v1.book(a.venue.id, bookingBody(a.variant.id, { start_at: '2026-11-26T09:00:00Z' }), a.key);
    expectStatus(res, 201);
    const late = await makeTherapist(ctx.db, a.organisation.id, {
      shifts: [{ venue_id: a.venue.id, days_of_week: EVERY_DAY, start_time: '09:00', end_time: '18:00' }],
    });
    expect((await listEligibleTherapists(ctx.db, res.body.data.id)).map((t) => t.id)).not.toContain(late.id);
  });
});
