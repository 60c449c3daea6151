import request from 'supertest';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptBooking, finishBooking } from '../../src/bookings/therapist-workflow.js';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { createTestContext, type TestContext } from '../support/test-app.js';

describe('therapist acceptance and outcomes (spec 3.1)', () => {
  let ctx: TestContext;
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  const now = Temporal.Instant.from('2026-11-22T09:00:00Z');
  beforeAll(async () => {
    ctx = await createTestContext();
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 2, therapists: 2 });
  });
  afterAll(() => ctx.close());

  const book = async (start: string) => {
    const res = await request(ctx.app).post(`/v1/venues/${f.venue.id}/bookings`).set('Authorization', `Bearer ${f.key}`).send(bookingBody(f.variant.id, { start_at: start }));
    expect(res.status).toBe(201);
    return res.body.data as { id: string; customer_id: string };
  };
  const holders = async (bookingId: string) =>
    (await ctx.db.selectFrom('therapist_reservations').select('therapist_id').where('booking_id', '=', bookingId).execute()).map((r) => r.therapist_id);

  it('confirms a pending booking and assigns the accepting therapist, moving the hold to them', async () => {
    const booking = await book('2026-11-25T09:00:00Z');
    const [tentative] = await holders(booking.id);
    const other = f.therapists.find((t) => t.id !== tentative)!.id;
    const accepted = await acceptBooking(ctx.db, { bookingId: booking.id, therapistId: other, now });
    expect(accepted).toEqual({ id: booking.id, status: 'confirmed', therapist_id: other });
    expect(await holders(booking.id)).toEqual([other]);
  });

  it('refuses a therapist who was not offered the booking, and a non-pending booking', async () => {
    const booking = await book('2026-11-25T12:00:00Z');
    await expect(acceptBooking(ctx.db, { bookingId: booking.id, therapistId: '00000000-0000-4000-8000-000000000000', now })).rejects.toThrow(/was not offered/);
    const [tentative] = await holders(booking.id);
    await acceptBooking(ctx.db, { bookingId: booking.id, therapistId: tentative!, now });
    await expect(acceptBooking(ctx.db, { bookingId: booking.id, therapistId: tentative!, now })).rejects.toThrow(/is confirmed/);
  });

  it('refuses a therapist who is no longer free, and leaves the booking as it was', async () => {
    const first = await book('2026-11-26T09:00:00Z');
    const second = await book('2026-11-26T09:00:00Z'); // both therapists are now held at 09:00
    const [firstHolder] = await holders(first.id);
    const [secondHolder] = await holders(second.id);
    await expect(acceptBooking(ctx.db, { bookingId: first.id, therapistId: secondHolder!, now })).rejects.toThrow(/no longer free/);
    expect(await holders(first.id)).toEqual([firstHolder]);
    const row = await ctx.db.selectFrom('bookings').select('status').where('id', '=', first.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });

  it('completes or marks a no-show only from confirmed, releasing the holds, and the customer list shows it', async () => {
    const booking = await book('2026-11-27T09:00:00Z');
    await expect(finishBooking(ctx.db, { bookingId: booking.id, outcome: 'completed', now })).rejects.toThrow(/only confirmed/);
    const [holder] = await holders(booking.id);
    await acceptBooking(ctx.db, { bookingId: booking.id, therapistId: holder!, now });
    expect((await finishBooking(ctx.db, { bookingId: booking.id, outcome: 'no_show', now })).status).toBe('no_show');
    expect(await holders(booking.id)).toEqual([]);
    const list = await request(ctx.app).get(`/v1/venues/${f.venue.id}/customers/${booking.customer_id}/bookings`).set('Authorization', `Bearer ${f.key}`);
    expect(list.body.data.find((b: { id: string }) => b.id === booking.id).status).toBe('no_show');
  });
});
