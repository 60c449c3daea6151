import { type CancelBookingBody, SCOPES } from '@spa/contract';
import type { z } from 'zod';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isoFromDb } from '../../src/lib/instant.js';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey, makeBooking, makeCustomer, makeTreatment, makeVenue } from '../support/factories.js';
import { coded, REQUEST_ID } from '../support/api.js';
import { setup } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';

const NOW = '2026-11-22T08:00:00Z';

type Venue = Awaited<ReturnType<typeof makeBookableVenue>>;
type CancelBody = z.input<typeof CancelBookingBody>;

describe('POST /v1/bookings/{booking_id}/cancel', () => {
  const ctx = setup({ now: NOW });
  let f: Venue;
  beforeAll(async () => {
    // One room and one therapist, the default policy: partner 24 h 0% / 2 h 50% / 0 h 100%, customer 48 h 0% / 0 h 100%.
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 1, therapists: 1 });
  });
  beforeEach(() => ctx.clock.set(NOW));

  const book = async (start: string, extra: object = {}, v: Venue = f) => {
    ctx.clock.set(NOW);
    const res = await ctx.partner(v.key).bookings.create({
      params: { venue_id: v.venue.id },
      body: bookingBody(v.variant.id, { start_at: start, ...extra }),
    });
    expectStatus(res, 201);
    return res.body.data;
  };
  const cancel = (ref: string, key: string | null, body: CancelBody = { reason: 'Guest changed plans' }) =>
    ctx.partner(key).bookings.cancel({ params: { booking_id: ref }, body });
  const slotStarts = async (date: string, v: Venue = f) => {
    const res = await ctx.partner(v.key).availability.variant({
      params: { venue_id: v.venue.id, variant_id: v.variant.id },
      query: { date },
    });
    expectStatus(res, 200);
    const { data } = res.body;
    if (data.mode !== 'day') throw new Error(`a date query answered ${data.mode} mode`);
    return data.slots.map((s) => s.start_at);
  };
  const holdCount = async (bookingId: string) => {
    const rooms = await ctx.db
      .selectFrom('room_reservations')
      .select('room_id')
      .where('booking_id', '=', bookingId)
      .execute();
    const therapists = await ctx.db
      .selectFrom('therapist_reservations')
      .select('therapist_id')
      .where('booking_id', '=', bookingId)
      .execute();
    return rooms.length + therapists.length;
  };

  describe('200 cancelled', () => {
    it('cancels by UUID: the full booking, status cancelled, with the cancellation block', async () => {
      const booking = await book('2026-11-30T09:00:00Z', { external_id: 'pms-full', notes: 'Late check-in' });
      ctx.clock.set('2026-11-25T10:00:00Z');
      const res = await cancel(booking.id, f.key, { reason: 'Guest changed plans' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: {
          id: booking.id,
          booking_number: booking.booking_number,
          status: 'cancelled',
          venue_id: f.venue.id,
          treatment_id: f.treatment.id,
          variant_id: f.variant.id,
          customer_id: booking.customer_id,
          start_at: '2026-11-30T09:00:00Z',
          end_at: '2026-11-30T10:00:00Z',
          guest_count: 1,
          therapists_accepted: 0,
          notes: 'Late check-in',
          external_reference: 'hotel.ROOM-412',
          external_id: 'pms-full',
          client_type: 'hotel',
          total_price: { amount: 90, currency: 'EUR' },
          payment_method: 'partner_billed',
          payment_status: 'paid',
          created_at: NOW,
          updated_at: '2026-11-25T10:00:00Z',
          cancellation: {
            fee: { amount: 0, currency: 'EUR' },
            policy:
              'Cancelled by the partner 119 hours before the start: the tier "24 hours or more before" applies (0% fee), EUR 0.00.',
            cancelled_at: '2026-11-25T10:00:00Z',
            cancelled_by: 'partner',
            reason: 'Guest changed plans',
          },
        },
      });
      const row = await ctx.db
        .selectFrom('bookings')
        .select(['status', 'cancelled_by', 'cancellation_reason', 'cancellation_fee_minor'])
        .where('id', '=', booking.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        status: 'cancelled',
        cancelled_by: 'partner',
        cancellation_reason: 'Guest changed plans',
        cancellation_fee_minor: 0,
      });
    });

    it('releases the room and the therapist at once: the slot is listed again and can be booked again', async () => {
      const booking = await book('2026-12-01T09:00:00Z');
      expect(await holdCount(booking.id)).toBe(2);
      expect(await slotStarts('2026-12-01')).not.toContain('2026-12-01T09:00:00Z');
      expect((await cancel(booking.id, f.key)).status).toBe(200);
      expect(await holdCount(booking.id)).toBe(0);
      expect(await slotStarts('2026-12-01')).toContain('2026-12-01T09:00:00Z');
      const again = await book('2026-12-01T09:00:00Z');
      expect(again.id).not.toBe(booking.id);
    });

    it('cancels by ext:{external_id}', async () => {
      const booking = await book('2026-12-02T09:00:00Z', { external_id: 'pms-77' });
      const res = await cancel('ext:pms-77', f.key);
      expectStatus(res, 200);
      expect([res.body.data.id, res.body.data.status, res.body.data.external_id]).toEqual([
        booking.id,
        'cancelled',
        'pms-77',
      ]);
    });

    it('cancels pending, awaiting_therapist and confirmed bookings', async () => {
      const customer = await makeCustomer(ctx.db, f.organisation.id);
      for (const status of ['pending', 'awaiting_therapist', 'confirmed'] as const) {
        const row = await makeBooking(
          ctx.db,
          { venueId: f.venue.id, treatmentId: f.treatment.id, variantId: f.variant.id, customerId: customer.id },
          { status, start_at: '2026-12-20T09:00:00Z', end_at: '2026-12-20T10:00:00Z' },
        );
        const res = await cancel(row.id, f.key);
        expectStatus(res, 200);
        expect(res.body.data.status, status).toBe('cancelled');
      }
    });
  });

  describe('fee', () => {
    const feeAt = async (
      now: string,
      body: CancelBody = { reason: 'Guest changed plans' },
      start = '2026-12-03T16:00:00Z',
      extra: object = {},
      v: Venue = f,
    ) => {
      const booking = await book(start, extra, v);
      ctx.clock.set(now);
      const res = await cancel(booking.id, v.key, body);
      expectStatus(res, 200);
      const { fee, policy, cancelled_at, cancelled_by } = res.body.data.cancellation!;
      expect(cancelled_at).toBe(now);
      return { fee, policy, cancelled_by };
    };

    it('applies the partner tiers at their boundaries: exactly 24 h free, just under 50%, exactly 2 h 50%, just under 100%', async () => {
      const cases: [string, number, string][] = [
        [
          '2026-12-02T16:00:00Z',
          0,
          'Cancelled by the partner 24 hours before the start: the tier "24 hours or more before" applies (0% fee), EUR 0.00.',
        ],
        [
          '2026-12-02T16:00:01Z',
          45,
          'Cancelled by the partner 23.9 hours before the start: the tier "2 hours or more before" applies (50% fee), EUR 45.00.',
        ],
        [
          '2026-12-03T14:00:00Z',
          45,
          'Cancelled by the partner 2 hours before the start: the tier "2 hours or more before" applies (50% fee), EUR 45.00.',
        ],
        [
          '2026-12-03T14:00:01Z',
          90,
          'Cancelled by the partner 1.9 hours before the start: the tier "0 hours or more before" applies (100% fee), EUR 90.00.',
        ],
        [
          '2026-12-03T16:00:00Z',
          90,
          'Cancelled by the partner 0 minutes before the start: the tier "0 hours or more before" applies (100% fee), EUR 90.00.',
        ],
        [
          '2026-12-03T17:30:00Z',
          90,
          'Cancelled by the partner after the start: the last tier applies (100% fee), EUR 90.00.',
        ],
      ];
      for (const [now, amount, policy] of cases) {
        expect(await feeAt(now), now).toEqual({ fee: { amount, currency: 'EUR' }, policy, cancelled_by: 'partner' });
      }
    });

    it('uses the partner tiers by default and the customer tiers when cancelled_by is customer', async () => {
      // 36 hours before: free for the partner (24 h tier), 100% for the customer (whose free tier needs 48 h).
      expect(await feeAt('2026-12-02T04:00:00Z')).toEqual({
        fee: { amount: 0, currency: 'EUR' },
        policy:
          'Cancelled by the partner 36 hours before the start: the tier "24 hours or more before" applies (0% fee), EUR 0.00.',
        cancelled_by: 'partner',
      });
      expect(await feeAt('2026-12-02T04:00:00Z', { reason: 'ill', cancelled_by: 'partner' })).toMatchObject({
        fee: { amount: 0, currency: 'EUR' },
        cancelled_by: 'partner',
      });
      expect(await feeAt('2026-12-02T04:00:00Z', { reason: 'ill', cancelled_by: 'customer' })).toEqual({
        fee: { amount: 90, currency: 'EUR' },
        policy:
          'Cancelled by the customer 36 hours before the start: the tier "0 hours or more before" applies (100% fee), EUR 90.00.',
        cancelled_by: 'customer',
      });
      expect((await feeAt('2026-12-01T16:00:00Z', { reason: 'ill', cancelled_by: 'customer' })).fee).toEqual({
        amount: 0,
        currency: 'EUR',
      }); // exactly 48 h
    });

    it('computes the fee on the price paid, rounded half-up to the cent', async () => {
      const threeHoursBefore = '2026-12-03T13:00:00Z'; // 50%
      expect(
        (await feeAt(threeHoursBefore, undefined, undefined, { price_paid: { amount: 99.99, currency: 'EUR' } })).fee,
      ).toEqual({ amount: 50, currency: 'EUR' }); // 49.995
      expect(
        (await feeAt(threeHoursBefore, undefined, undefined, { price_paid: { amount: 99.97, currency: 'EUR' } })).fee,
      ).toEqual({ amount: 49.99, currency: 'EUR' }); // 49.985
      expect(
        (await feeAt(threeHoursBefore, undefined, undefined, { price_paid: { amount: 0.01, currency: 'EUR' } })).fee,
      ).toEqual({ amount: 0.01, currency: 'EUR' }); // 0.005
    });

    it('rounds to the yen for a venue in JPY, which has no minor digits', async () => {
      const jpy = await makeBookableVenue(ctx.db, ctx.vault, { venue: { currency: 'JPY' } });
      const result = await feeAt(
        '2026-12-03T13:00:00Z',
        undefined,
        undefined,
        { price_paid: { amount: 999, currency: 'JPY' } },
        jpy,
      );
      expect(result).toEqual({
        fee: { amount: 500, currency: 'JPY' }, // 499.5
        policy:
          'Cancelled by the partner 3 hours before the start: the tier "2 hours or more before" applies (50% fee), JPY 500.',
        cancelled_by: 'partner',
      });
    });
  });

  describe('errors', () => {
    it('answers 404 BOOKING_NOT_FOUND for an unknown UUID, an unknown ext:, an empty ext: and a garbage id', async () => {
      for (const ref of ['00000000-0000-4000-8000-000000000000', 'ext:nope', 'ext:', 'bkg_123', 'not-a-uuid-at-all']) {
        const res = await cancel(ref, f.key);
        expect([res.status, res.body], ref).toEqual([404, coded('BOOKING_NOT_FOUND', 'Booking not found')]);
      }
    });

    it("answers 403 FORBIDDEN for a booking of another organisation, and for another venue's booking with a venue-restricted key", async () => {
      const booking = await book('2026-12-05T09:00:00Z', { external_id: 'mine' });
      const forbidden = coded('FORBIDDEN', 'This booking belongs to a venue your key cannot access');
      const other = await makeBookableVenue(ctx.db, ctx.vault);
      const foreign = await cancel(booking.id, other.key);
      expect([foreign.status, foreign.body]).toEqual([403, forbidden]);
      // ext: looks only among the bookings the key can see, so another organisation's key does not find it.
      const byExt = await cancel('ext:mine', other.key);
      expect([byExt.status, byExt.body]).toEqual([404, coded('BOOKING_NOT_FOUND', 'Booking not found')]);

      const sibling = await makeVenue(ctx.db, f.organisation.id);
      const { key: restricted } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { venueId: sibling.id });
      const outside = await cancel(booking.id, restricted);
      expect([outside.status, outside.body]).toEqual([403, forbidden]);
      const row = await ctx.db
        .selectFrom('bookings')
        .select('status')
        .where('id', '=', booking.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('pending');
      expect(await holdCount(booking.id)).toBe(2);
    });

    it('answers 422 BOOKING_ALREADY_CANCELLED for cancelled, completed and no_show bookings, changing nothing', async () => {
      const booking = await book('2026-12-06T09:00:00Z');
      ctx.clock.set('2026-11-23T08:00:00Z');
      const first = await cancel(booking.id, f.key, { reason: 'first' });
      ctx.clock.set('2026-11-24T08:00:00Z');
      const second = await cancel(booking.id, f.key, { reason: 'second', cancelled_by: 'customer' });
      expect([second.status, second.body]).toEqual([
        422,
        coded('BOOKING_ALREADY_CANCELLED', 'Booking is already cancelled and cannot be cancelled'),
      ]);
      const row = await ctx.db
        .selectFrom('bookings')
        .select(['cancellation_reason', 'cancelled_at', 'cancelled_by'])
        .where('id', '=', booking.id)
        .executeTakeFirstOrThrow();
      expect([row.cancellation_reason, row.cancelled_by, isoFromDb(row.cancelled_at!)]).toEqual([
        'first',
        'partner',
        '2026-11-23T08:00:00Z',
      ]);
      expect(first.status).toBe(200);

      const customer = await makeCustomer(ctx.db, f.organisation.id);
      for (const [status, word] of [
        ['completed', 'completed'],
        ['no_show', 'no-show'],
      ] as const) {
        const done = await makeBooking(
          ctx.db,
          { venueId: f.venue.id, treatmentId: f.treatment.id, variantId: f.variant.id, customerId: customer.id },
          { status, external_id: `done-${status}` },
        );
        for (const ref of [done.id, `ext:done-${status}`]) {
          const res = await cancel(ref, f.key);
          expect([res.status, res.body], ref).toEqual([
            422,
            coded('BOOKING_ALREADY_CANCELLED', `Booking is already ${word} and cannot be cancelled`),
          ]);
        }
        const after = await ctx.db
          .selectFrom('bookings')
          .select(['status', 'cancelled_at'])
          .where('id', '=', done.id)
          .executeTakeFirstOrThrow();
        expect(after).toEqual({ status, cancelled_at: null });
      }
    });

    it('answers 409 AMBIGUOUS_EXTERNAL_ID when the external id exists at two venues the key can see, and cancels it with a key that sees one', async () => {
      const sibling = await makeVenue(ctx.db, f.organisation.id);
      const treatment = await makeTreatment(ctx.db, sibling.id);
      const customer = await makeCustomer(ctx.db, f.organisation.id);
      const rows = [];
      for (const [venueId, t] of [
        [f.venue.id, f.treatment],
        [sibling.id, treatment],
      ] as const) {
        rows.push(
          await makeBooking(
            ctx.db,
            { venueId, treatmentId: t.id, variantId: t.variant.id, customerId: customer.id },
            {
              status: 'pending',
              external_id: 'twice',
              start_at: '2026-12-20T09:00:00Z',
              end_at: '2026-12-20T10:00:00Z',
            },
          ),
        );
      }
      const res = await cancel('ext:twice', f.key);
      expect([res.status, res.body]).toEqual([
        409,
        coded('AMBIGUOUS_EXTERNAL_ID', 'This external id matches bookings at several venues; cancel by booking id'),
      ]);

      const { key: restricted } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { venueId: sibling.id });
      const one = await cancel('ext:twice', restricted);
      expectStatus(one, 200);
      expect(one.body.data.id).toBe(rows[1]!.id);
    });

    it('answers 400 for a missing or empty reason and an unknown cancelled_by', async () => {
      const booking = await book('2026-12-07T09:00:00Z');
      const cases: [object, string, string][] = [
        [{}, 'reason', 'reason is required'],
        [{ reason: '   ' }, 'reason', 'reason must not be empty'],
        [{ reason: 'x'.repeat(501) }, 'reason', 'reason must be at most 500 characters'],
        [{ reason: 'ok', cancelled_by: 'hotel' }, 'cancelled_by', 'cancelled_by must be one of partner, customer'],
      ];
      for (const [body, path, message] of cases) {
        // Bodies the contract refuses, so sent untyped: the typed client cannot express them.
        const res = await ctx.api.cancel(booking.id, f.key, body);
        expect([res.status, res.body], message).toEqual([
          400,
          { error: message, details: [{ path, message }], request_id: REQUEST_ID },
        ]);
      }
      expect(await holdCount(booking.id)).toBe(2);
    });

    it('answers 401 without a key and 403 Insufficient scope without bookings:write', async () => {
      const booking = await book('2026-12-08T09:00:00Z');
      const none = await cancel(booking.id, null);
      expect([none.status, none.body]).toEqual([401, { error: 'Missing API key', request_id: REQUEST_ID }]);
      const { key } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, {
        scopes: SCOPES.filter((s) => s !== 'bookings:write'),
      });
      const scope = await cancel(booking.id, key);
      expect([scope.status, scope.body]).toEqual([
        403,
        { error: 'Insufficient scope', missing: ['bookings:write'], request_id: REQUEST_ID },
      ]);
      expect(await holdCount(booking.id)).toBe(2);
    });
  });
});
