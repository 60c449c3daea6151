import { Temporal } from 'temporal-polyfill';
import { beforeAll, describe, expect, it } from 'vitest';
import { error } from '../support/api.js';
import { bookingBody, type CreateBody, makeBookableVenue } from '../support/booking-fixture.js';
import { EVERY_DAY, makeOrganisation, makeRoom, makeTherapist, makeVenue } from '../support/factories.js';
import { setup } from '../support/test-app.js';
import { errorOf, expectStatus } from '../support/typed-api.js';
import { auditRows, dashboardOf, makePerson, type Session } from './dashboard-support.js';
import { spaOf } from './resources-support.js';

describe('bookings from the dashboard: list, detail, acceptance, complete, no-show', () => {
  const ctx = setup(); // now: 2026-11-22T08:00:00Z
  const dash = () => dashboardOf(ctx.app);
  /** The dashboard's bookings API, typed by its contract, as a signed-in person calls it. */
  const as = (session: Session) => ctx.dashboard(session).bookings;
  const accept = (id: string, therapistId: string, session: Session) =>
    as(session).accept({ params: { id }, body: { therapist_id: therapistId } });
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  let otherVenue: { id: string; slug: string };
  let admin: Session;
  let desk: Session;
  let deskOther: Session;
  let adminId: string;
  let slot = 0;

  beforeAll(async () => {
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 4, therapists: 2 });
    for (let i = 0; i < 4; i++) await makeRoom(ctx.db, f.venue.id);
    otherVenue = await makeVenue(ctx.db, f.organisation.id);
    const a = await makePerson(ctx.db, f.organisation.id, { role: 'admin' });
    const d = await makePerson(ctx.db, f.organisation.id, { role: 'desk', venueIds: [f.venue.id] });
    const o = await makePerson(ctx.db, f.organisation.id, { role: 'desk', venueIds: [otherVenue.id] });
    adminId = a.id;
    [admin, desk, deskOther] = [
      await dash().signIn(a.email),
      await dash().signIn(d.email),
      await dash().signIn(o.email),
    ];
  });

  /** A pending booking at the next free hour (each test gets its own), offered to both therapists. */
  const book = async (extra: Partial<CreateBody> = {}) => {
    const start = `2026-11-${25 + Math.floor(slot / 8)}T${String(8 + (slot++ % 8)).padStart(2, '0')}:00:00Z`;
    const res = await ctx.v1.book(f.venue.id, bookingBody(f.variant.id, { start_at: start, ...extra }), f.key);
    expectStatus(res, 201);
    return res.body.data;
  };

  it('lists the bookings of the organisation with their names, filtered and paginated like the partner API', async () => {
    const b = await book({ external_id: 'PMS-LIST-1', guest: { ...bookingBody('').guest, last_name: 'Zylberstein' } });
    const res = await as(admin).list({ query: { q: 'zylber', status: 'pending' } });
    expectStatus(res, 200);
    expect(res.body).toEqual({
      data: [
        expect.objectContaining({
          id: b.id,
          status: 'pending',
          external_id: 'PMS-LIST-1',
          venue: expect.objectContaining({ id: f.venue.id, slug: f.venue.slug, timezone: 'Europe/Paris' }),
          customer: expect.objectContaining({ last_name: 'Zylberstein' }),
          treatment: { id: f.treatment.id, name: f.treatment.name },
          therapist: null,
        }),
      ],
      pagination: { page: 1, page_size: 20, total_items: 1, total_pages: 1 },
    });
    const day = b.start_at.slice(0, 10);
    const inDay = await as(admin).list({ query: { venue: f.venue.slug, from: day, to: day, q: 'PMS-LIST' } });
    expectStatus(inDay, 200);
    expect(inDay.body.data).toHaveLength(1);
    const elsewhere = await as(admin).list({ query: { venue: otherVenue.id, q: 'PMS-LIST' } });
    expectStatus(elsewhere, 200);
    expect(elsewhere.body.data).toEqual([]);
    const bad = await as(admin).list({ query: { from: '2026-02-30' } });
    expect([bad.status, errorOf(bad)]).toEqual([400, 'from must be a valid calendar date (YYYY-MM-DD)']);
    // Year 0000 is ISO 8601's 1 BC, which no PostgreSQL date holds: refused as a date, never sent to SQL.
    for (const query of [{ from: '0000-01-01' }, { to: '0000-12-31' }]) {
      const res = await as(admin).list({ query });
      const field = Object.keys(query)[0];
      expect([res.status, errorOf(res)]).toEqual([400, `${field} must be a valid calendar date (YYYY-MM-DD)`]);
    }
    expectStatus(await as(admin).list({ query: { from: '0001-01-01', to: '9999-12-31' } }), 200);
  });

  it('shows one booking with its timeline, its deliveries (admin) and the therapists who may accept it', async () => {
    const b = await book();
    const res = await as(admin).get({ params: { id: b.id } });
    expectStatus(res, 200);
    expect(res.body.data).toMatchObject({
      id: b.id,
      status: 'pending',
      events: [{ type: 'booking.created' }],
      deliveries: [],
    });
    expect(res.body.data.eligible_therapists.map((t) => t.id).sort()).toEqual(f.therapists.map((t) => t.id).sort());
    const missing = await as(admin).get({ params: { id: crypto.randomUUID() } });
    expect([missing.status, missing.body]).toEqual([404, error('Booking not found')]);
  });

  it("limits a desk person to their venues' bookings: another venue's booking is 404, its filter too", async () => {
    const b = await book();
    const seen = await as(desk).get({ params: { id: b.id } });
    expectStatus(seen, 200);
    expect(seen.body.data).toMatchObject({ id: b.id, deliveries: [] });
    const listed = await as(desk).list();
    expectStatus(listed, 200);
    expect(listed.body.data.map((x) => x.id)).toContain(b.id);
    const hidden = await as(deskOther).get({ params: { id: b.id } });
    expect([hidden.status, hidden.body]).toEqual([404, error('Booking not found')]);
    const none = await as(deskOther).list();
    expectStatus(none, 200);
    expect(none.body.data).toEqual([]);
    const filter = await as(deskOther).list({ query: { venue: f.venue.slug } });
    expect([filter.status, filter.body]).toEqual([404, error('Venue not found')]);
    const refused = await accept(b.id, f.therapists[0]!.id, deskOther);
    expect([refused.status, refused.body]).toEqual([404, error('Booking not found')]);
  });

  it('records an acceptance from the desk: confirmed, the webhook event written, one audit row', async () => {
    const b = await book();
    const therapist = f.therapists[1]!.id;
    const res = await accept(b.id, therapist, desk);
    expectStatus(res, 200);
    expect(res.body.data).toMatchObject({
      status: 'confirmed',
      therapist: { id: therapist },
      eligible_therapists: [],
    });
    // The creation's event carries the database's time, the acceptance the test's fixed clock: compare the set.
    expect(res.body.data.events.map((e) => e.type).sort()).toEqual(['booking.confirmed', 'booking.created']);
    const rows = (await auditRows(ctx.db, f.organisation.id)).filter((r) => r.target_id === b.id);
    expect(rows.map((r) => [r.action, r.actor_type, r.target_type])).toEqual([
      ['booking.acceptance_recorded', 'person', 'booking'],
    ]);
  });

  it('refuses an acceptance that cannot be: a therapist not offered it (422), of another organisation (422), twice (409)', async () => {
    const b = await book();
    const offShift = await makeTherapist(ctx.db, f.organisation.id, { shifts: [] });
    const notOffered = await accept(b.id, offShift.id, admin);
    expectStatus(notOffered, 422);
    expect(notOffered.body.error).toMatch(/was not offered booking/);
    const stranger = await makeTherapist(ctx.db, (await makeOrganisation(ctx.db)).id, {
      shifts: [{ venue_id: otherVenue.id, days_of_week: EVERY_DAY, start_time: '09:00', end_time: '18:00' }],
    });
    const foreign = await accept(b.id, stranger.id, admin);
    expectStatus(foreign, 422);
    expect(foreign.body.error).toBe(`No therapist ${stranger.id}`);
    expect((await accept(b.id, f.therapists[0]!.id, admin)).status).toBe(200);
    const twice = await accept(b.id, f.therapists[0]!.id, admin);
    expect(twice.status).toBe(409);
    expect(errorOf(twice)).toBe(
      `Booking ${b.id} is confirmed; only pending or awaiting_therapist bookings can be accepted`,
    );
    const early = await as(admin).complete({ params: { id: b.id } });
    expect(early.status).toBe(409);
    // In the desk's terms: the booking's number and its start in the venue's own time, never an id or a UTC instant.
    const local = Temporal.Instant.from(b.start_at).toZonedDateTimeISO('Europe/Paris');
    const when = `${local.toPlainDate().toString()} at ${local.toPlainTime().toString({ smallestUnit: 'minute' })}`;
    expect(early.body).toEqual({
      error: `Booking #${b.booking_number} starts on ${when} (${f.venue.name} time): mark it completed once it has started.`,
      code: 'not_started',
      request_id: 'req-test',
    });
    const audited = (await auditRows(ctx.db, f.organisation.id)).filter((r) => r.target_id === b.id);
    expect(audited.map((r) => r.action)).toEqual(['booking.acceptance_recorded']);
  });

  it('records complete and no-show once the booking has started, one audit row each', async () => {
    const done = await book();
    const gone = await book();
    for (const id of [done.id, gone.id]) await accept(id, f.therapists[0]!.id, admin);
    const lateAdmin = await makePerson(ctx.db, f.organisation.id, { role: 'admin' });
    ctx.clock.set('2026-12-05T08:00:00Z');
    try {
      // Days later the morning's sessions have expired; another admin signs in (a sign-in clears one's own
      // expired sessions, and the other tests keep using the first admin's).
      const later = await dash().signIn(lateAdmin.email);
      const completed = await as(later).complete({ params: { id: done.id } });
      expectStatus(completed, 200);
      expect(completed.body.data.status).toBe('completed');
      const noShow = await as(later).noShow({ params: { id: gone.id } });
      expectStatus(noShow, 200);
      expect(noShow.body.data.status).toBe('no_show');
      expect(noShow.body.data.events.map((e) => e.type).sort()).toEqual([
        'booking.confirmed',
        'booking.created',
        'booking.no_show',
      ]);
    } finally {
      ctx.clock.set('2026-11-22T08:00:00Z');
    }
    const rows = await auditRows(ctx.db, f.organisation.id);
    expect(rows.filter((r) => r.target_id === done.id).map((r) => [r.action, r.actor_person_id])).toEqual([
      ['booking.acceptance_recorded', adminId],
      ['booking.completion_recorded', lateAdmin.id],
    ]);
    expect(rows.filter((r) => r.target_id === gone.id).map((r) => r.action)).toEqual([
      'booking.acceptance_recorded',
      'booking.no_show_recorded',
    ]);
  });

  it('gives the same result and the same webhook event through the dashboard and through the CLI', async () => {
    const viaDashboard = await book();
    const viaCli = await book();
    const therapist = f.therapists[0]!.id;
    const res = await accept(viaDashboard.id, therapist, admin);
    expect(res.status).toBe(200);
    const cli = await spaOf(ctx)('bookings', 'accept', viaCli.id, '--therapist', therapist);
    expect(cli).toMatchObject({ code: 0, stderr: '' });

    /** What a booking became and what its confirmation announced, without what differs between two bookings. */
    const outcome = async (id: string) => {
      const booking = await ctx.db
        .selectFrom('bookings')
        .select(['status', 'therapist_id', 'updated_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const events = await ctx.db
        .selectFrom('webhook_events')
        .select(['type', 'body'])
        .where('booking_id', '=', id)
        .orderBy('created_at')
        .execute();
      const confirmed = JSON.parse(events.find((e) => e.type === 'booking.confirmed')!.body);
      const {
        id: _id,
        booking_number: _n,
        start_at: _s,
        end_at: _e,
        customer_id: _c,
        ...rest
      } = confirmed.data.booking;
      const offers = await ctx.db
        .selectFrom('booking_offers')
        .select(['therapist_id', 'accepted_at'])
        .where('booking_id', '=', id)
        .where('accepted_at', 'is not', null)
        .execute();
      return {
        booking,
        types: events.map((e) => e.type).sort(),
        event: { ...confirmed, data: { booking: rest } },
        offers,
      };
    };
    expect(await outcome(viaDashboard.id)).toEqual(await outcome(viaCli.id));
    const rows = await auditRows(ctx.db, f.organisation.id);
    const audited = (id: string) =>
      rows.filter((r) => r.target_id === id).map((r) => [r.action, r.target_type, r.actor_type]);
    expect(audited(viaDashboard.id)).toEqual([['booking.acceptance_recorded', 'booking', 'person']]);
    expect(audited(viaCli.id)).toEqual([['booking.acceptance_recorded', 'booking', 'operator']]);
  });
});
