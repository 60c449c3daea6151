import { beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { setup } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';
import { auditRows, dashboardOf, makePerson, type Session } from './dashboard-support.js';

/** Moving a booking from its dashboard page: the day's slots to pick from, then the partner reschedule as the person. */
describe("the dashboard's reschedule of a booking", () => {
  const ctx = setup(); // now: 2026-11-22T08:00:00Z
  const dash = () => dashboardOf(ctx.app);
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  let admin: Session;
  let desk: Session;
  let otherAdmin: Session;
  let hour = 9;

  beforeAll(async () => {
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 1, therapists: 1 });
    const other = await makeBookableVenue(ctx.db, ctx.vault);
    const a = await makePerson(ctx.db, f.organisation.id, { role: 'admin' });
    const d = await makePerson(ctx.db, f.organisation.id, { role: 'desk', venueIds: [f.venue.id] });
    const o = await makePerson(ctx.db, other.organisation.id, { role: 'admin' });
    [admin, desk, otherAdmin] = [
      await dash().signIn(a.email),
      await dash().signIn(d.email),
      await dash().signIn(o.email),
    ];
  });

  const book = async (startAt = `2026-11-25T${String(hour++).padStart(2, '0')}:00:00Z`) => {
    const res = await ctx.v1.book(f.venue.id, bookingBody(f.variant.id, { start_at: startAt }), f.key);
    expectStatus(res, 201);
    return res.body.data;
  };
  const move = (id: string, startAt: string, session: Session) =>
    dash().post(`/bookings/${id}/reschedule`, { start_at: startAt }, session);

  it("lists the day's slots of the booking's variant for an admin", async () => {
    const booking = await book();
    const res = await dash().get(`/bookings/${booking.id}/slots?date=2026-11-26`, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ mode: 'day', date: '2026-11-26', variant_id: f.variant.id });
    expect(res.body.data.slots.length).toBeGreaterThan(0);
    expect((await dash().get(`/bookings/${booking.id}/slots?date=26-11-2026`, admin)).status).toBe(400);
  });

  it('moves a booking for an admin to a listed slot, audited as the person', async () => {
    const booking = await book();
    const slots = await dash().get(`/bookings/${booking.id}/slots?date=2026-11-27`, admin);
    const target = slots.body.data.slots[2].start_at as string;
    const res = await move(booking.id, target, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.start_at).toBe(target);
    expect(res.body.data.events.map((e: { type: string }) => e.type)).toContain('booking.rescheduled');
    const rows = await auditRows(ctx.db, f.organisation.id);
    expect(rows.filter((r) => r.target_id === booking.id).map((r) => r.action)).toContain('booking.rescheduled');
  });

  it('says in a sentence when the slot is taken (409) and when a fee applies (422)', async () => {
    const first = await book();
    const second = await book();
    const taken = await move(second.id, first.start_at, admin);
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe(
      `That time is no longer free for Booking #${second.booking_number}: choose another slot.`,
    );
    const soon = await book('2026-11-22T12:00:00Z');
    const fee = await move(soon.id, '2026-11-28T10:00:00Z', admin);
    expect(fee.status).toBe(422);
    expect(fee.body.error).toBe(
      `Booking #${soon.booking_number} is within its cancellation fee window: it can no longer be moved, only cancelled.`,
    );
  });

  it('refuses a desk person (403), another organisation (404), and a call without the CSRF token (403)', async () => {
    const booking = await book();
    const target = '2026-11-28T14:00:00Z';
    for (const [session, status, text] of [
      [desk, 403, 'Forbidden'],
      [otherAdmin, 404, 'Booking not found'],
      [{ ...admin, csrf: '' }, 403, 'Forbidden'],
      [{ ...admin, csrf: otherAdmin.csrf }, 403, 'Forbidden'],
    ] as const) {
      const res = await move(booking.id, target, session);
      expect([res.status, res.body.error]).toEqual([status, text]);
    }
    expect((await dash().get(`/bookings/${booking.id}/slots?date=2026-11-28`, desk)).status).toBe(403);
    expect((await dash().get(`/bookings/${booking.id}/slots?date=2026-11-28`, otherAdmin)).status).toBe(404);
    const still = await dash().get(`/bookings/${booking.id}`, admin);
    expect(still.body.data.start_at).toBe(booking.start_at);
  });
});
