import { Temporal } from 'temporal-polyfill';
import { EVERY_DAY, makeRoom, makeTherapist, makeTreatment, makeVenue } from '../support/factories.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookingBody, makeBookableVenue, type BookableVenue } from '../support/booking-fixture.js';
import { setup, TEST_NOW as NOW } from '../support/test-app.js';
import { dayStarts, expectStatus } from '../support/typed-api.js';

// Each sweep sends about 300 requests: on a busy machine that takes longer than the default test timeout.
describe(
  'POST /v1/venues/{venue_id}/bookings: agreement with the availability endpoint (5-minute sweep of a whole day)',
  { timeout: 120_000 },
  () => {
    const ctx = setup();
    beforeEach(() => ctx.clock.set(NOW));

    /**
     * Every instant of the venue-local day on a 5-minute grid: the listed ones are booked (then cancelled, which
     * restores the day), every other one is refused (400 if not in the future, else 409). The listing is the same after.
     */
    async function sweep(v: BookableVenue, date: string, guestCount: number) {
      const listed = await ctx.v1.availability(
        v.venue.id,
        v.variant.id,
        { date, guest_count: String(guestCount) },
        v.key,
      );
      const starts = new Set(dayStarts(listed));
      const zone = v.venue.timezone ?? 'UTC';
      const dayStart = Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: zone }).toInstant();
      const dayEnd = Temporal.PlainDate.from(date).add({ days: 1 }).toZonedDateTime({ timeZone: zone }).toInstant();
      const now = ctx.clock.now();
      let refused = 0;
      for (let t = dayStart; Temporal.Instant.compare(t, dayEnd) < 0; t = t.add({ minutes: 5 })) {
        const instant = t.toString();
        if (starts.has(instant)) continue;
        const res = await ctx.v1.book(
          v.venue.id,
          bookingBody(v.variant.id, { start_at: instant, guest_count: guestCount }),
          v.key,
        );
        const expected =
          Temporal.Instant.compare(t, now) <= 0 ? [400, 'start_at must be in the future'] : [409, 'slot_unavailable'];
        expect([res.status, 'error' in res.body ? res.body.error : undefined], instant).toEqual(expected);
        refused++;
      }
      for (const start of starts) {
        const res = await ctx.v1.book(
          v.venue.id,
          bookingBody(v.variant.id, { start_at: start, guest_count: guestCount }),
          v.key,
        );
        expectStatus(res, 201);
        expect(res.body.data.start_at, start).toBe(start);
        expect((await ctx.v1.cancel(res.body.data.id, v.key, { reason: 'test' })).status).toBe(200);
      }
      expect(
        (await ctx.v1.availability(v.venue.id, v.variant.id, { date, guest_count: String(guestCount) }, v.key)).body,
      ).toEqual(listed.body);
      expect(refused + starts.size).toBe(dayEnd.since(dayStart).total({ unit: 'minute' }) / 5);
      return [...starts];
    }

    /**
     * Paris, 09:00–18:00, 15-minute turnover, 30-minute inter-venue buffer, lunch block 13:00–13:30, lead time 90 min.
     * Rooms of capacity 1 and 2; T1, T2 on shift all day, T3 from 12:00 and also working at venue O.
     * Booked: 11:00 local for two guests (room 2, T1 and T2), 16:00 local for one (room 1), T3 at O 15:00–16:00.
     * The clock is 09:10 local on the day, so the morning is past or inside the lead time.
     */
    let s: BookableVenue;
    beforeAll(async () => {
      ctx.clock.set('2026-12-03T08:10:00Z');
      s = await makeBookableVenue(ctx.db, ctx.vault, {
        rooms: 0,
        therapists: 2,
        venue: { room_turnover_buffer_minutes: 15, inter_venue_buffer_minutes: 30 },
      });
      await makeRoom(ctx.db, s.venue.id, { capacity: 1 });
      await makeRoom(ctx.db, s.venue.id, { capacity: 2 });
      await ctx.db.updateTable('treatments').set({ lead_time_minutes: 90 }).where('id', '=', s.treatment.id).execute();
      await ctx.db
        .insertInto('venue_blocks')
        .values({
          id: crypto.randomUUID(),
          venue_id: s.venue.id,
          daily: true,
          start_time: '13:00',
          end_time: '13:30',
          reason: 'lunch',
        })
        .execute();
      const o = await makeVenue(ctx.db, s.organisation.id);
      await makeRoom(ctx.db, o.id);
      const oTreatment = await makeTreatment(ctx.db, o.id, { variants: [{ duration_minutes: 60, price_minor: 9000 }] });
      await makeTherapist(ctx.db, s.organisation.id, {
        shifts: [
          { venue_id: s.venue.id, days_of_week: EVERY_DAY, start_time: '12:00', end_time: '18:00' },
          { venue_id: o.id, days_of_week: EVERY_DAY, start_time: '09:00', end_time: '18:00' },
        ],
      });
      // T3 at O first, so that the one-guest booking at 16:00 local cannot pick T3.
      const booked = [
        await ctx.v1.book(o.id, bookingBody(oTreatment.variant.id, { start_at: '2026-12-03T14:00:00Z' }), s.key),
        await ctx.v1.book(
          s.venue.id,
          bookingBody(s.variant.id, { start_at: '2026-12-03T10:00:00Z', guest_count: 2 }),
          s.key,
        ),
        await ctx.v1.book(s.venue.id, bookingBody(s.variant.id, { start_at: '2026-12-03T15:00:00Z' }), s.key),
      ];
      expect(booked.map((r) => r.status)).toEqual([201, 201, 201]);
    });

    it('books exactly the listed instants for one guest on a day with bookings, blocks, buffers and a lead time', async () => {
      ctx.clock.set('2026-12-03T08:10:00Z');
      const starts = await sweep(s, '2026-12-03', 1);
      // 12:00, then 13:30–17:00 local; 11:00 and 11:30 have no therapist, 12:30 and 13:00 meet the block.
      expect(starts).toEqual(
        ['11:00', '12:30', '13:00', '13:30', '14:00', '14:30', '15:00', '15:30', '16:00'].map(
          (t) => `2026-12-03T${t}:00Z`,
        ),
      );
    });

    it('books exactly the listed instants for two guests on the same day', async () => {
      ctx.clock.set('2026-12-03T08:10:00Z');
      const starts = await sweep(s, '2026-12-03', 2);
      // Two guests need the room for two and two free therapists: 15:30 and 16:00 local have one therapist left.
      expect(starts).toEqual(['12:30', '13:00', '13:30', '14:00', '15:30', '16:00'].map((t) => `2026-12-03T${t}:00Z`));
    });

    it('books exactly the listed instants on a 25-hour DST day with out-of-hours booking, the repeated hour taken once', async () => {
      ctx.clock.set('2026-10-20T08:00:00Z');
      const d = await makeBookableVenue(ctx.db, ctx.vault, {
        therapists: 0,
        venue: { allow_out_of_hours_booking: true },
      });
      await makeTherapist(ctx.db, d.organisation.id, {
        shifts: [{ venue_id: d.venue.id, days_of_week: EVERY_DAY, start_time: '00:00', end_time: '23:59' }],
      });
      expect(
        (await ctx.v1.book(d.venue.id, bookingBody(d.variant.id, { start_at: '2026-10-25T11:00:00Z' }), d.key)).status,
      ).toBe(201); // 12:00 local
      const day = await ctx.v1.availability(d.venue.id, d.variant.id, { date: '2026-10-25' }, d.key);
      expectStatus(day, 200);
      if (day.body.data.mode !== 'day') throw new Error(`a date query answered ${day.body.data.mode} mode`);
      const listed = day.body.data.slots;
      const starts = await sweep(d, '2026-10-25', 1);
      // 00:00–22:30 local every 30 minutes (46), less 11:30, 12:00 and 12:30 around the booking.
      expect(starts).toHaveLength(43);
      expect(starts).toContain('2026-10-25T00:30:00Z'); // 02:30 local, first occurrence (UTC+2)
      expect(starts).not.toContain('2026-10-25T01:30:00Z'); // 02:30 local again (UTC+1): taken once
      expect(listed.filter((slot) => !slot.out_of_hours).map((slot) => slot.local_time)).toEqual([
        '09:00',
        '09:30',
        '10:00',
        '10:30',
        '11:00',
        '13:00',
        '13:30',
        '14:00',
        '14:30',
        '15:00',
        '15:30',
        '16:00',
        '16:30',
        '17:00',
      ]);
    });
  },
);
