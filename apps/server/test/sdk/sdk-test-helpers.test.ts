import type { Server } from 'node:http';
import { createPartnerClient } from '@spa/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey } from '../support/factories.js';
import { listen } from '../support/listen.js';
import { setup } from '../support/test-app.js';

describe('the SDK moves test bookings with the test helpers, against the running app', () => {
  const ctx = setup(); // now: 2026-11-22T08:00:00Z
  let server: Server;
  let baseUrl: string;
  let world: Awaited<ReturnType<typeof makeBookableVenue>> & { test: string };

  beforeAll(async () => {
    ({ server, baseUrl } = await listen(ctx));
    const f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 2, therapists: 2 });
    const test = (await makeApiKey(ctx.db, ctx.vault, f.organisation.id, { livemode: false })).key;
    world = { ...f, test };
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('books with the test key, accepts it, and reads booking.confirmed in the test events feed', async () => {
    const client = createPartnerClient({ baseUrl, apiKey: world.test });
    const booked = await client.createBooking(world.venue.id, bookingBody(world.variant.id));
    if (!booked.ok) throw booked.error;
    expect(booked.data).toMatchObject({ status: 'pending', livemode: false });
    const therapist = world.therapists[1]!.id;
    const accepted = await client.testHelpers.acceptBooking(booked.data.id, { therapist_id: therapist });
    expect(accepted.ok && [accepted.status, accepted.data.status, accepted.data.livemode]).toEqual([
      200,
      'confirmed',
      false,
    ]);
    const events = await client.listEvents({ booking_id: booked.data.id, type: ['booking.confirmed'] });
    if (!events.ok) throw events.error;
    expect(events.data.map((e) => [e.type, e.livemode])).toEqual([['booking.confirmed', false]]);
    const again = await client.testHelpers.acceptBooking(booked.data.id);
    expect(!again.ok && [again.error.status, again.error.text]).toEqual([
      409,
      `Booking ${booked.data.id} is confirmed; only pending or awaiting_therapist bookings can be accepted`,
    ]);
  });

  it('expires, accepts and no-shows a test booking; complete waits for the start', async () => {
    const client = createPartnerClient({ baseUrl, apiKey: world.test });
    const booked = await client.createBooking(
      world.venue.id,
      bookingBody(world.variant.id, { start_at: '2026-11-25T11:00:00Z' }),
    );
    if (!booked.ok) throw booked.error;
    const id = booked.data.id;
    const expired = await client.testHelpers.expireBooking(id);
    expect(expired.ok && expired.data.status).toBe('awaiting_therapist');
    expect((await client.testHelpers.acceptBooking(id)).ok).toBe(true);
    const complete = await client.testHelpers.completeBooking(id);
    expect(!complete.ok && complete.error.status).toBe(409);
    const noShow = await client.testHelpers.noShowBooking(id);
    expect(noShow.ok && noShow.data.status).toBe('no_show');
  });

  it('answers a live key with 403 Test mode only, a typed error', async () => {
    const live = createPartnerClient({ baseUrl, apiKey: world.key });
    const booked = await live.createBooking(
      world.venue.id,
      bookingBody(world.variant.id, { start_at: '2026-11-25T13:00:00Z' }),
    );
    if (!booked.ok) throw booked.error;
    for (const step of [
      () => live.testHelpers.acceptBooking(booked.data.id),
      () => live.testHelpers.expireBooking(booked.data.id),
      () => live.testHelpers.completeBooking(booked.data.id),
      () => live.testHelpers.noShowBooking(booked.data.id),
    ]) {
      const res = await step();
      expect(!res.ok && [res.error.status, res.error.text]).toEqual([403, 'Test mode only']);
    }
    expect(() => live.testHelpers.acceptBooking('')).toThrow(TypeError);
  });
});
