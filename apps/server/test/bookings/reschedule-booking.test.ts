import { SCOPES } from '@spa/contract';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acceptBooking } from '../../src/bookings/therapist-workflow.js';
import { isoFromDb } from '../../src/lib/instant.js';
import { coded, error, REQUEST_ID } from '../support/api.js';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey, makeBooking, makeCustomer, makeTreatment, makeVenue } from '../support/factories.js';
import { overlappingHolds } from '../support/overlapping-holds.js';
import { setup } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';
import { Temporal } from 'temporal-polyfill';

const NOW = '2026-11-22T08:00:00Z';

type Venue = Awaited<ReturnType<typeof makeBookableVenue>>;

describe('POST /v1/bookings/{booking_id}/reschedule', () => {
  const ctx = setup({ now: NOW });
  let f: Venue;
  beforeAll(async () => {
    // One room and one therapist, the default policy: partner 24 h 0% / 2 h 50% / 0 h 100%.
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 1, therapists: 1 });
  });
  beforeEach(() => ctx.clock.set(NOW));

  const book = async (start: string, extra: object = {}, v: Venue = f) => {
    const res = await ctx.v1.book(v.venue.id, bookingBody(v.variant.id, { start_at: start, ...extra }), v.key);
    expectStatus(res, 201);
    return res.body.data;
  };
  const holds = async (bookingId: string) => {
    const room = await ctx.db
      .selectFrom('room_reservations')
      .select(['room_id', 'during'])
      .where('booking_id', '=', bookingId)
      .execute();
    const therapists = await ctx.db
      .selectFrom('therapist_reservations')
      .select(['therapist_id', 'during'])
      .where('booking_id', '=', bookingId)
      .orderBy('therapist_id')
      .execute();
    return { room, therapists };
  };
  const events = (bookingId: string, type = 'booking.rescheduled') =>
    ctx.db
      .selectFrom('webhook_events')
      .select(['type', 'body'])
      .where('booking_id', '=', bookingId)
      .where('type', '=', type)
      .execute();
  const slotStarts = async (date: string, v: Venue = f) => {
    const res = await ctx.v1.availability(v.venue.id, v.variant.id, { date }, v.key);
    expectStatus(res, 200);
    if (res.body.data.mode !== 'day') throw new Error('a date query answered range mode');
    return res.body.data.slots.map((s) => s.start_at);
  };

  describe('200 moved', () => {
    it('moves the booking: same id, number, external id, customer, variant, guests and price; new times; holds moved; the old slot listed again', async () => {
      const booking = await book('2026-11-30T09:00:00Z', { external_id: 'move-1', notes: 'Late check-in' });
      ctx.clock.set('2026-11-25T10:00:00Z');
      const res = await ctx.v1.reschedule(booking.id, f.key, '2026-11-30T15:00:00Z');
      expectStatus(res, 200);
      expect(res.body.data).toEqual({
        ...booking,
        start_at: '2026-11-30T15:00:00Z',
        end_at: '2026-11-30T16:00:00Z',
        updated_at: '2026-11-25T10:00:00Z',
      });
      const h = await holds(booking.id);
      expect(h.room).toHaveLength(1);
      expect(h.therapists).toHaveLength(1);
      expect(await slotStarts('2026-11-30')).toContain('2026-11-30T09:00:00Z');
      expect(await slotStarts('2026-11-30')).not.toContain('2026-11-30T15:00:00Z');
      expect(await overlappingHolds(ctx.db)).toBe(0);
    });

    it('emits booking.rescheduled once, with the booking and its previous start and end, and writes an audit row naming the key', async () => {
      const booking = await book('2026-11-30T10:00:00Z');
      ctx.clock.set('2026-11-25T11:00:00Z');
      expectStatus(await ctx.v1.reschedule(booking.id, f.key, '2026-11-30T12:00:00Z'), 200);
      const rows = await events(booking.id);
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0]!.body)).toEqual({
        type: 'booking.rescheduled',
        timestamp: '2026-11-25T11:00:00Z',
        livemode: true,
        data: {
          booking: expect.objectContaining({ id: booking.id, start_at: '2026-11-30T12:00:00Z' }),
          previous_start_at: '2026-11-30T10:00:00Z',
          previous_end_at: '2026-11-30T11:00:00Z',
        },
      });
      const audit = await ctx.db
        .selectFrom('audit_events')
        .select(['action', 'actor_type', 'actor_key_id', 'target_id', 'target_label'])
        .where('target_id', '=', booking.id)
        .execute();
      expect(audit).toEqual([
        {
          action: 'booking.rescheduled',
          actor_type: 'api_key',
          actor_key_id: f.key.split('_')[2],
          target_id: booking.id,
          target_label: `#${booking.booking_number}`,
        },
      ]);
    });

    it('moves by 30 minutes onto its own old time with one room and one therapist: its own holds never block it', async () => {
      const booking = await book('2026-12-01T10:00:00Z');
      const res = await ctx.v1.reschedule(booking.id, f.key, '2026-12-01T10:30:00Z');
      expectStatus(res, 200);
      expect([res.body.data.start_at, res.body.data.end_at]).toEqual(['2026-12-01T10:30:00Z', '2026-12-01T11:30:00Z']);
      const back = await ctx.v1.reschedule(booking.id, f.key, '2026-12-01T10:00:00Z');
      expectStatus(back, 200);
      expect(await overlappingHolds(ctx.db)).toBe(0);
    });

    it('answers the same start_at with 200 and changes nothing: no event, same updated_at, same holds', async () => {
      const booking = await book('2026-12-02T10:00:00Z');
      const before = await holds(booking.id);
      ctx.clock.set('2026-11-23T08:00:00Z');
      const res = await ctx.v1.reschedule(booking.id, f.key, '2026-12-02T11:00:00+01:00');
      expectStatus(res, 200);
      expect(res.body.data).toEqual(booking);
      expect(await holds(booking.id)).toEqual(before);
      expect(await events(booking.id)).toHaveLength(0);
    });

    it('reschedules by ext:{external_id}', async () => {
      const booking = await book('2026-12-03T10:00:00Z', { external_id: 'pms-move' });
      const res = await ctx.v1.reschedule('ext:pms-move', f.key, '2026-12-03T13:00:00Z');
      expectStatus(res, 200);
      expect([res.body.data.id, res.body.data.start_at]).toEqual([booking.id, '2026-12-03T13:00:00Z']);
    });
  });

  describe('therapists of a confirmed booking', () => {
    let two: Venue;
    beforeAll(async () => {
      two = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 2, therapists: 2 });
    });
    const confirmedBy = async (start: string, therapistId: string) => {
      const booking = await book(start, {}, two);
      await acceptBooking(ctx.db, { bookingId: booking.id, therapistId, now: Temporal.Instant.from(NOW) });
      return booking;
    };
    const state = (id: string) =>
      ctx.db
        .selectFrom('bookings')
        .select(['status', 'therapist_id', 'accepted_count', 'response_window_from'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    it('keeps them, confirmed, when each is still qualified, on shift and free at the new time', async () => {
      const [t0] = two.therapists;
      const booking = await confirmedBy('2026-12-04T09:00:00Z', t0!.id);
      const res = await ctx.v1.reschedule(booking.id, two.key, '2026-12-04T14:00:00Z');
      expectStatus(res, 200);
      expect(res.body.data.status).toBe('confirmed');
      expect((await holds(booking.id)).therapists.map((t) => t.therapist_id)).toEqual([t0!.id]);
      expect(await state(booking.id)).toMatchObject({ status: 'confirmed', therapist_id: t0!.id, accepted_count: 1 });
    });

    it('makes it pending with new tentative therapists and a restarted response window when one is no longer free', async () => {
      const [t0, t1] = two.therapists;
      const booking = await confirmedBy('2026-12-05T09:00:00Z', t0!.id);
      await ctx.db
        .insertInto('therapist_absences')
        .values({ therapist_id: t0!.id, start_at: '2026-12-05T13:00:00Z', end_at: '2026-12-05T15:00:00Z' })
        .execute();
      ctx.clock.set('2026-11-24T08:00:00Z');
      const res = await ctx.v1.reschedule(booking.id, two.key, '2026-12-05T13:00:00Z');
      expectStatus(res, 200);
      expect(res.body.data.status).toBe('pending');
      expect((await holds(booking.id)).therapists.map((t) => t.therapist_id)).toEqual([t1!.id]);
      const row = await state(booking.id);
      expect([row.status, row.therapist_id, row.accepted_count, isoFromDb(row.response_window_from!)]).toEqual([
        'pending',
        null,
        0,
        '2026-11-24T08:00:00Z',
      ]);
      const offers = await ctx.db
        .selectFrom('booking_offers')
        .select(['therapist_id', 'accepted_at'])
        .where('booking_id', '=', booking.id)
        .execute();
      expect(offers).toEqual([{ therapist_id: t1!.id, accepted_at: null }]);
      // The new tentative therapist can accept it again.
      await acceptBooking(ctx.db, { bookingId: booking.id, therapistId: t1!.id, now: Temporal.Instant.from(NOW) });
      expect((await state(booking.id)).status).toBe('confirmed');
    });
  });

  describe('errors', () => {
    it('answers 409 slot_unavailable for a taken slot, an off-grid start and a closed hour, changing nothing', async () => {
      const booking = await book('2026-12-06T09:00:00Z');
      await book('2026-12-06T14:00:00Z');
      for (const start of ['2026-12-06T14:00:00Z', '2026-12-06T09:10:00Z', '2026-12-06T22:00:00Z']) {
        const res = await ctx.v1.reschedule(booking.id, f.key, start);
        expect([res.status, res.body], start).toEqual([409, error('slot_unavailable')]);
      }
      const row = await ctx.v1.booking(booking.id, f.key);
      expectStatus(row, 200);
      expect(row.body.data.start_at).toBe('2026-12-06T09:00:00Z');
      expect((await holds(booking.id)).therapists).toHaveLength(1);
      expect(await events(booking.id)).toHaveLength(0);
    });

    it('answers 422 BOOKING_ALREADY_CANCELLED and BOOKING_NOT_RESCHEDULABLE (started, completed, no-show)', async () => {
      const cancelled = await book('2026-12-07T09:00:00Z');
      expectStatus(await ctx.v1.cancel(cancelled.id, f.key), 200);
      const res = await ctx.v1.reschedule(cancelled.id, f.key, '2026-12-07T11:00:00Z');
      expect([res.status, res.body]).toEqual([
        422,
        coded('BOOKING_ALREADY_CANCELLED', 'Booking is already cancelled and cannot be rescheduled'),
      ]);

      const customer = await makeCustomer(ctx.db, f.organisation.id);
      const refs = {
        venueId: f.venue.id,
        treatmentId: f.treatment.id,
        variantId: f.variant.id,
        customerId: customer.id,
      };
      for (const [status, word] of [
        ['completed', 'is completed'],
        ['no_show', 'is no-show'],
      ] as const) {
        const done = await makeBooking(ctx.db, refs, { status });
        const r = await ctx.v1.reschedule(done.id, f.key, '2026-12-07T11:00:00Z');
        expect([r.status, r.body]).toEqual([
          422,
          coded('BOOKING_NOT_RESCHEDULABLE', `Booking ${word} and cannot be rescheduled`),
        ]);
      }
      const started = await book('2026-12-08T09:00:00Z');
      ctx.clock.set('2026-12-08T09:00:00Z');
      const r = await ctx.v1.reschedule(started.id, f.key, '2026-12-08T15:00:00Z');
      expect([r.status, r.body]).toEqual([
        422,
        coded('BOOKING_NOT_RESCHEDULABLE', 'Booking has started and cannot be rescheduled'),
      ]);
    });

    it('answers 422 RESCHEDULE_FEE_APPLIES with the fee inside a fee tier, and moves at exactly 24 h before', async () => {
      const booking = await book('2026-12-09T16:00:00Z');
      ctx.clock.set('2026-12-08T16:00:01Z'); // 50% tier
      const res = await ctx.v1.reschedule(booking.id, f.key, '2026-12-10T16:00:00Z');
      expect([res.status, res.body]).toEqual([
        422,
        {
          error: 'RESCHEDULE_FEE_APPLIES',
          message: 'A partner cancellation now would cost EUR 45: cancel instead',
          fee: { amount: 45, currency: 'EUR' },
          request_id: REQUEST_ID,
        },
      ]);
      ctx.clock.set('2026-12-08T16:00:00Z');
      expectStatus(await ctx.v1.reschedule(booking.id, f.key, '2026-12-10T16:00:00Z'), 200);
    });

    it('answers 404 BOOKING_NOT_FOUND, 403 FORBIDDEN and 409 AMBIGUOUS_EXTERNAL_ID as cancel does', async () => {
      for (const ref of ['00000000-0000-4000-8000-000000000000', 'ext:nope', 'not-a-uuid']) {
        const res = await ctx.v1.reschedule(ref, f.key, '2026-12-11T10:00:00Z');
        expect([res.status, res.body], ref).toEqual([404, coded('BOOKING_NOT_FOUND', 'Booking not found')]);
      }
      const booking = await book('2026-12-11T09:00:00Z', { external_id: 'twice' });
      const other = await makeBookableVenue(ctx.db, ctx.vault);
      const foreign = await ctx.v1.reschedule(booking.id, other.key, '2026-12-11T10:00:00Z');
      expect([foreign.status, foreign.body]).toEqual([
        403,
        coded('FORBIDDEN', 'This booking belongs to a venue your key cannot access'),
      ]);

      const sibling = await makeVenue(ctx.db, f.organisation.id);
      const treatment = await makeTreatment(ctx.db, sibling.id);
      const customer = await makeCustomer(ctx.db, f.organisation.id);
      await makeBooking(
        ctx.db,
        { venueId: sibling.id, treatmentId: treatment.id, variantId: treatment.variant.id, customerId: customer.id },
        { status: 'pending', external_id: 'twice', start_at: '2026-12-20T09:00:00Z', end_at: '2026-12-20T10:00:00Z' },
      );
      const ambiguous = await ctx.v1.reschedule('ext:twice', f.key, '2026-12-11T10:00:00Z');
      expect([ambiguous.status, ambiguous.body]).toEqual([
        409,
        coded('AMBIGUOUS_EXTERNAL_ID', 'This external id matches bookings at several venues; reschedule by booking id'),
      ]);
      const { key: restricted } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { venueId: f.venue.id });
      expectStatus(await ctx.v1.reschedule('ext:twice', restricted, '2026-12-11T10:00:00Z'), 200);
    });

    it('answers 400 for a past, a missing and a malformed start_at before looking the booking up', async () => {
      const booking = await book('2026-12-12T09:00:00Z');
      const cases: [object, string][] = [
        [{ start_at: '2026-11-21T09:00:00Z' }, 'start_at must be in the future'],
        [{}, 'start_at is required'],
        [{ start_at: '2026-12-12 10:00' }, 'start_at must be an ISO 8601 instant with an offset or Z'],
        [{ start_at: '2026-12-12T10:00:00' }, 'start_at must be an ISO 8601 instant with an offset or Z'],
      ];
      for (const [body, message] of cases) {
        for (const ref of [booking.id, '00000000-0000-4000-8000-000000000000']) {
          const res = await ctx.api.post(`/v1/bookings/${ref}/reschedule`, body, f.key);
          expect([res.status, res.body], message).toEqual([
            400,
            { error: message, details: [{ path: 'start_at', message }], request_id: REQUEST_ID },
          ]);
        }
      }
    });

    it('answers 401 without a key and 403 Insufficient scope without bookings:write', async () => {
      const booking = await book('2026-12-13T09:00:00Z');
      const none = await ctx.v1.reschedule(booking.id, null, '2026-12-13T10:00:00Z');
      expect([none.status, none.body]).toEqual([401, error('Missing API key')]);
      const { key } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, {
        scopes: SCOPES.filter((s) => s !== 'bookings:write'),
      });
      const scope = await ctx.v1.reschedule(booking.id, key, '2026-12-13T10:00:00Z');
      expect([scope.status, scope.body]).toEqual([403, error('Insufficient scope', { missing: ['bookings:write'] })]);
    });
  });
});
