import { expectStatus, dayStarts } from '../support/typed-api.js';
import type { CreateBody } from '../support/booking-fixture.js';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  acceptBooking,
  BookingStateConflictError,
  BookingWorkflowError,
  finishBooking,
  TherapistNotEligibleError,
} from '../../src/bookings/therapist-workflow.js';
import { isoFromDb } from '../../src/lib/instant.js';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import {
  EVERY_DAY,
  makeBooking,
  makeCustomer,
  makeRoom,
  makeTherapist,
  makeTreatment,
  makeVenue,
} from '../support/factories.js';
import { setup } from '../support/test-app.js';
import { fixedClock } from '../support/fixed-clock.js';
import { operatorTrail } from '../../src/audit/audit-trail.js';

const LATER = Temporal.Instant.from('2026-11-22T09:00:00Z');
/** After every booking of these tests has started: when they can be completed or marked a no-show. */
const AFTER_START = Temporal.Instant.from('2026-12-01T09:00:00Z');

describe('therapist acceptance and outcomes', () => {
  const ctx = setup(); // now: 2026-11-22T08:00:00Z
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  let unskilled: { id: string };
  beforeAll(async () => {
    // Two rooms for one guest and one for two; three qualified therapists and one without the skill, all on shift.
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 2, therapists: 3 });
    await makeRoom(ctx.db, f.venue.id, { capacity: 2 });
    unskilled = await makeTherapist(ctx.db, f.organisation.id, {
      skills: ['facial'],
      shifts: [{ venue_id: f.venue.id, days_of_week: EVERY_DAY, start_time: '09:00', end_time: '18:00' }],
    });
  });

  const book = async (start: string, extra: Partial<CreateBody> = {}) => {
    const res = await ctx.v1.book(f.venue.id, bookingBody(f.variant.id, { start_at: start, ...extra }), f.key);
    expectStatus(res, 201);
    return res.body.data;
  };
  /** Everything acceptance may touch, to prove a refusal changed nothing. */
  const state = async (bookingId: string) => {
    const booking = await ctx.db
      .selectFrom('bookings')
      .select(['status', 'therapist_id', 'updated_at'])
      .where('id', '=', bookingId)
      .executeTakeFirstOrThrow();
    const { rows: therapists } = await sql<{ therapist_id: string; during: string }>`
      select therapist_id, lower(during) || ' ' || upper(during) as during from therapist_reservations where booking_id = ${bookingId} order by 1`.execute(
      ctx.db,
    );
    const rooms = await ctx.db
      .selectFrom('room_reservations')
      .select(['room_id', 'during'])
      .where('booking_id', '=', bookingId)
      .execute();
    const offers = await ctx.db
      .selectFrom('booking_offers')
      .select(['therapist_id', 'accepted_at'])
      .where('booking_id', '=', bookingId)
      .orderBy('therapist_id')
      .execute();
    return { booking: { ...booking, updated_at: isoFromDb(booking.updated_at) }, therapists, rooms, offers };
  };
  const holders = async (bookingId: string) => (await state(bookingId)).therapists.map((t) => t.therapist_id);
  const accept = (bookingId: string, therapistId: string) =>
    acceptBooking(ctx.db, { bookingId, therapistId, now: LATER });
  const slotStarts = async (date: string, guestCount: number) =>
    dayStarts(await ctx.v1.availability(f.venue.id, f.variant.id, { date, guest_count: String(guestCount) }, f.key));

  describe('acceptBooking', () => {
    it('confirms a pending booking and assigns the tentative therapist when they accept, keeping the holds', async () => {
      const booking = await book('2026-11-25T09:00:00Z');
      const before = await state(booking.id);
      const [tentative] = before.therapists.map((t) => t.therapist_id);
      expect(await accept(booking.id, tentative!)).toEqual({
        id: booking.id,
        status: 'confirmed',
        therapist_id: tentative,
        accepted_count: 1,
        guest_count: 1,
      });
      const after = await state(booking.id);
      expect(after.booking).toEqual({
        status: 'confirmed',
        therapist_id: tentative,
        updated_at: '2026-11-22T09:00:00Z',
      });
      expect([after.therapists, after.rooms]).toEqual([before.therapists, before.rooms]);
      expect(
        after.offers.filter((o) => o.accepted_at !== null).map((o) => [o.therapist_id, isoFromDb(o.accepted_at!)]),
      ).toEqual([[tentative, '2026-11-22T09:00:00Z']]);
    });

    it('moves the reservation to an offered therapist who was not the tentative one, for the same [start, end)', async () => {
      const booking = await book('2026-11-25T11:00:00Z');
      const before = await state(booking.id);
      const tentative = before.therapists[0]!;
      const other = f.therapists.find((t) => t.id !== tentative.therapist_id)!.id;
      expect(await accept(booking.id, other)).toMatchObject({
        id: booking.id,
        status: 'confirmed',
        therapist_id: other,
      });
      const after = await state(booking.id);
      expect(after.therapists).toEqual([{ therapist_id: other, during: tentative.during }]);
      expect(after.rooms).toEqual(before.rooms);
      // The tentative therapist holds nothing at that time any more.
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from therapist_reservations where therapist_id = ${tentative.therapist_id}
        and during && tstzrange('2026-11-25T11:00:00Z', '2026-11-25T12:00:00Z')`.execute(ctx.db);
      expect(rows[0]!.n).toBe(0);
    });

    it('with two guests, the accepting therapist takes the place of one of the two tentative ones', async () => {
      const booking = await book('2026-11-25T14:00:00Z', { guest_count: 2 });
      const tentative = await holders(booking.id);
      expect(tentative).toHaveLength(2);
      const third = f.therapists.find((t) => !tentative.includes(t.id))!.id;
      await accept(booking.id, third);
      const after = await holders(booking.id);
      expect(after).toHaveLength(2);
      expect(after).toContain(third);
      expect(after.filter((id) => tentative.includes(id))).toHaveLength(1);
    });

    it('with two guests, stays pending at one acceptance (1 of 2, shown in the API) and confirms at the second, with one booking.confirmed', async () => {
      const booking = await book('2026-11-26T14:00:00Z', { guest_count: 2 });
      const [first, second] = await holders(booking.id);
      expect(await accept(booking.id, first!)).toEqual({
        id: booking.id,
        status: 'pending',
        therapist_id: first,
        accepted_count: 1,
        guest_count: 2,
      });
      const read = await ctx.v1.booking(booking.id, f.key);
      expectStatus(read, 200);
      expect([read.body.data.status, read.body.data.therapists_accepted]).toEqual(['pending', 1]);
      // The same therapist again is refused: two distinct therapists are needed.
      await expect(accept(booking.id, first!)).rejects.toThrow(
        new BookingStateConflictError(
          `Therapist ${first} has already accepted booking ${booking.id} (1 of 2 therapists accepted)`,
        ),
      );
      // A third therapist takes the other tentative one's place, never the accepted one's.
      const third = f.therapists.find((t) => t.id !== first && t.id !== second)!.id;
      expect(await accept(booking.id, third)).toMatchObject({ status: 'confirmed', accepted_count: 2 });
      expect((await holders(booking.id)).sort()).toEqual([first, third].sort());
      const events = await ctx.db
        .selectFrom('webhook_events')
        .select('type')
        .where('booking_id', '=', booking.id)
        .orderBy('created_at')
        .execute();
      expect(events.map((e) => e.type)).toEqual(['booking.created', 'booking.confirmed']);
      const audit = await ctx.db
        .selectFrom('audit_events')
        .select('action')
        .where('target_id', '=', booking.id)
        .execute();
      expect(audit).toHaveLength(0); // no trail given here; the audited path is below
    });

    it('audits each acceptance of a two-guest booking when a trail is given', async () => {
      const booking = await book('2026-11-27T14:00:00Z', { guest_count: 2 });
      const [first, second] = await holders(booking.id);
      const audit = operatorTrail(fixedClock('2026-11-22T09:00:00Z'));
      await acceptBooking(ctx.db, { bookingId: booking.id, therapistId: first!, now: LATER, audit });
      await acceptBooking(ctx.db, { bookingId: booking.id, therapistId: second!, now: LATER, audit });
      const rows = await ctx.db
        .selectFrom('audit_events')
        .select(['action', 'actor_type'])
        .where('target_id', '=', booking.id)
        .execute();
      expect(rows).toEqual([
        { action: 'booking.acceptance_recorded', actor_type: 'operator' },
        { action: 'booking.acceptance_recorded', actor_type: 'operator' },
      ]);
      const confirmed = await ctx.db
        .selectFrom('webhook_events')
        .select('type')
        .where('booking_id', '=', booking.id)
        .where('type', '=', 'booking.confirmed')
        .execute();
      expect(confirmed).toHaveLength(1);
    });

    it('refuses a therapist the booking was not offered to, saying why, and an unknown booking', async () => {
      const booking = await book('2026-11-26T09:00:00Z');
      const before = await state(booking.id);
      await expect(accept(booking.id, unskilled.id)).rejects.toThrow(
        new TherapistNotEligibleError(
          `Therapist ${unskilled.id} lacks the skills booking ${booking.id} needs: massage`,
        ),
      );
      const elsewhere = await makeTherapist(ctx.db, f.organisation.id, { skills: ['massage'], shifts: [] });
      await expect(accept(booking.id, elsewhere.id)).rejects.toThrow(
        new TherapistNotEligibleError(
          `Therapist ${elsewhere.id} was not offered booking ${booking.id} (not on shift at that venue, or not free when it was made)`,
        ),
      );
      const nobody = '00000000-0000-4000-8000-00000000000f';
      await expect(accept(booking.id, nobody)).rejects.toThrow(new TherapistNotEligibleError(`No therapist ${nobody}`));
      expect(await state(booking.id)).toEqual(before);
      const missing = '00000000-0000-4000-8000-000000000000';
      await expect(accept(missing, unskilled.id)).rejects.toThrow(new BookingWorkflowError(`No booking ${missing}`));
    });

    it('refuses an offered therapist who meanwhile holds another booking at that time, leaving the booking as it was', async () => {
      const first = await book('2026-11-26T12:00:00Z'); // offered to all three, holds one
      const second = await book('2026-11-26T12:30:00Z', { guest_count: 2 }); // holds the two others, overlapping
      const before = await state(first.id);
      const [taken] = await holders(second.id);
      expect(before.therapists.map((t) => t.therapist_id)).not.toContain(taken);
      expect(before.offers.map((o) => o.therapist_id)).toContain(taken);
      await expect(accept(first.id, taken!)).rejects.toThrow(
        new BookingStateConflictError(`Therapist ${taken} is no longer free at that time; the booking stays as it was`),
      );
      expect(await state(first.id)).toEqual(before);
      expect(before.booking).toMatchObject({ status: 'pending', therapist_id: null });
    });

    it('refuses an offered therapist booked meanwhile at another venue, overlapping or inside the inter-venue buffer', async () => {
      // Venue V keeps 30 minutes between venues; both its therapists also work at venue O.
      const v = await makeBookableVenue(ctx.db, ctx.vault, {
        therapists: 0,
        venue: { inter_venue_buffer_minutes: 30 },
      });
      const o = await makeVenue(ctx.db, v.organisation.id);
      const oTreatment = await makeTreatment(ctx.db, o.id);
      const customer = await makeCustomer(ctx.db, v.organisation.id);
      const shifts = [v.venue.id, o.id].map((venue_id) => ({
        venue_id,
        days_of_week: EVERY_DAY,
        start_time: '08:00',
        end_time: '18:00',
      }));
      const therapists = [
        await makeTherapist(ctx.db, v.organisation.id, { shifts }),
        await makeTherapist(ctx.db, v.organisation.id, { shifts }),
      ];
      const bookAtV = async (start: string) => {
        const res = await ctx.v1.book(v.venue.id, bookingBody(v.variant.id, { start_at: start }), v.key);
        expectStatus(res, 201);
        return res.body.data.id;
      };
      const holdAtO = async (therapistId: string, start: string, end: string) => {
        const row = await makeBooking(
          ctx.db,
          { venueId: o.id, treatmentId: oTreatment.id, variantId: oTreatment.variant.id, customerId: customer.id },
          { status: 'confirmed', start_at: start, end_at: end },
        );
        await ctx.db
          .insertInto('therapist_reservations')
          .values({ booking_id: row.id, therapist_id: therapistId, venue_id: o.id, during: `[${start},${end})` })
          .execute();
      };
      for (const [start, otherStart, otherEnd] of [
        ['2026-11-27T10:00:00Z', '2026-11-27T10:30:00Z', '2026-11-27T11:30:00Z'], // overlapping
        ['2026-11-27T13:00:00Z', '2026-11-27T12:00:00Z', '2026-11-27T12:45:00Z'], // ends 15 minutes before
      ] as const) {
        const bookingId = await bookAtV(start);
        const [tentative] = await holders(bookingId);
        const other = therapists.find((t) => t.id !== tentative)!.id;
        await holdAtO(other, otherStart, otherEnd);
        const before = await state(bookingId);
        await expect(accept(bookingId, other)).rejects.toThrow(
          new BookingStateConflictError(
            `Therapist ${other} is no longer free at that time; the booking stays as it was`,
          ),
        );
        expect(await state(bookingId), start).toEqual(before);
      }
      // Exactly the buffer apart is fine.
      const bookingId = await bookAtV('2026-11-27T16:00:00Z');
      const [tentative] = await holders(bookingId);
      const other = therapists.find((t) => t.id !== tentative)!.id;
      await holdAtO(other, '2026-11-27T14:30:00Z', '2026-11-27T15:30:00Z');
      expect((await accept(bookingId, other)).status).toBe('confirmed');
    });

    it('refuses bookings that are not pending: confirmed, cancelled, completed and no_show', async () => {
      const booking = await book('2026-11-28T09:00:00Z');
      const [holder] = await holders(booking.id);
      await accept(booking.id, holder!);
      await expect(accept(booking.id, holder!)).rejects.toThrow(
        new BookingStateConflictError(
          `Booking ${booking.id} is confirmed; only pending or awaiting_therapist bookings can be accepted`,
        ),
      );
      const cancelled = await book('2026-11-28T11:00:00Z');
      const [offered] = await holders(cancelled.id);
      expect((await ctx.v1.cancel(cancelled.id, f.key, { reason: 'x' })).status).toBe(200);
      await expect(accept(cancelled.id, offered!)).rejects.toThrow(
        `Booking ${cancelled.id} is cancelled; only pending or awaiting_therapist bookings can be accepted`,
      );
      expect(await holders(cancelled.id)).toEqual([]);
      for (const outcome of ['completed', 'no_show'] as const) {
        const done = await book('2026-11-28T13:00:00Z');
        const [t] = await holders(done.id);
        await accept(done.id, t!);
        await finishBooking(ctx.db, { bookingId: done.id, outcome, now: AFTER_START });
        await expect(accept(done.id, t!)).rejects.toThrow(
          `Booking ${done.id} is ${outcome}; only pending or awaiting_therapist bookings can be accepted`,
        );
        expect(await holders(done.id)).toEqual([]);
      }
    });
  });

  describe('finishBooking', () => {
    it('completes or marks a no-show a confirmed booking, releasing its room and therapists at once', async () => {
      for (const outcome of ['completed', 'no_show'] as const) {
        const booking = await book('2026-11-29T09:00:00Z', { guest_count: 2 }); // the only room for two
        const [holder, partner] = await holders(booking.id);
        await accept(booking.id, holder!);
        await accept(booking.id, partner!);
        expect(await slotStarts('2026-11-29', 2)).not.toContain('2026-11-29T09:00:00Z');
        expect(await finishBooking(ctx.db, { bookingId: booking.id, outcome, now: AFTER_START })).toEqual({
          id: booking.id,
          status: outcome,
          therapist_id: holder,
          accepted_count: 2,
          guest_count: 2,
        });
        const after = await state(booking.id);
        expect([after.booking, after.therapists, after.rooms]).toEqual([
          { status: outcome, therapist_id: holder, updated_at: '2026-12-01T09:00:00Z' },
          [],
          [],
        ]);
        expect(await slotStarts('2026-11-29', 2)).toContain('2026-11-29T09:00:00Z');
      }
    });

    it('refuses bookings that are not confirmed, changing nothing', async () => {
      const pending = await book('2026-11-29T12:00:00Z');
      const before = await state(pending.id);
      for (const outcome of ['completed', 'no_show'] as const) {
        const word = outcome === 'no_show' ? 'no-show' : 'completed';
        await expect(finishBooking(ctx.db, { bookingId: pending.id, outcome, now: AFTER_START })).rejects.toThrow(
          new BookingStateConflictError(
            `Booking ${pending.id} is pending; only confirmed bookings can be marked ${word}`,
          ),
        );
      }
      expect(await state(pending.id)).toEqual(before);

      const done = await book('2026-11-29T14:00:00Z');
      const [holder] = await holders(done.id);
      await accept(done.id, holder!);
      await finishBooking(ctx.db, { bookingId: done.id, outcome: 'completed', now: AFTER_START });
      await expect(finishBooking(ctx.db, { bookingId: done.id, outcome: 'no_show', now: AFTER_START })).rejects.toThrow(
        `Booking ${done.id} is completed; only confirmed bookings can be marked no-show`,
      );
      const missing = '00000000-0000-4000-8000-000000000000';
      await expect(
        finishBooking(ctx.db, { bookingId: missing, outcome: 'completed', now: AFTER_START }),
      ).rejects.toThrow(`No booking ${missing}`);
    });
    it('refuses to complete or mark a no-show a booking that has not started yet, changing nothing', async () => {
      const upcoming = await book('2026-11-29T16:00:00Z');
      const [holder] = await holders(upcoming.id);
      await accept(upcoming.id, holder!);
      const before = await state(upcoming.id);
      for (const [outcome, word] of [
        ['completed', 'completed'],
        ['no_show', 'no-show'],
      ] as const) {
        for (const now of [LATER, Temporal.Instant.from('2026-11-29T15:59:59Z')])
          await expect(finishBooking(ctx.db, { bookingId: upcoming.id, outcome, now })).rejects.toThrow(
            new BookingStateConflictError(
              `Booking ${upcoming.id} starts at 2026-11-29T16:00:00Z; it can be marked ${word} only once it has started`,
            ),
          );
      }
      expect(await state(upcoming.id)).toEqual(before);
      const atStart = Temporal.Instant.from('2026-11-29T16:00:00Z');
      expect(await finishBooking(ctx.db, { bookingId: upcoming.id, outcome: 'no_show', now: atStart })).toMatchObject({
        status: 'no_show',
      });
    });
  });

  it('shows the new statuses in the customer bookings list (GET /v1/venues/{id}/customers/{customer_id}/bookings)', async () => {
    const guest = { first_name: 'Lea', last_name: 'Roux', email: 'lea.roux@example.com' };
    const ids = [];
    for (const start of [
      '2026-11-30T09:00:00Z',
      '2026-11-30T11:00:00Z',
      '2026-11-30T13:00:00Z',
      '2026-11-30T15:00:00Z',
    ])
      ids.push((await book(start, { guest })).id);
    const [pending, confirmed, completed, noShow] = ids as [string, string, string, string];
    for (const id of [confirmed, completed, noShow]) await accept(id, (await holders(id))[0]!);
    await finishBooking(ctx.db, { bookingId: completed, outcome: 'completed', now: AFTER_START });
    await finishBooking(ctx.db, { bookingId: noShow, outcome: 'no_show', now: AFTER_START });

    const customerId = (
      await ctx.db.selectFrom('customers').select('id').where('email', '=', guest.email).executeTakeFirstOrThrow()
    ).id;
    const res = await ctx
      .partner(f.key)
      .customers.bookings({ params: { venue_id: f.venue.id, customer_id: customerId } });
    expectStatus(res, 200);
    expect(res.body.data.map((b) => [b.id, b.status, b.updated_at])).toEqual([
      [noShow, 'no_show', '2026-12-01T09:00:00Z'],
      [completed, 'completed', '2026-12-01T09:00:00Z'],
      [confirmed, 'confirmed', '2026-11-22T09:00:00Z'],
      [pending, 'pending', '2026-11-22T08:00:00Z'],
    ]);
    expect(res.body.pagination).toEqual({ page: 1, page_size: 20, total_items: 4, total_pages: 1 });
  });
});
