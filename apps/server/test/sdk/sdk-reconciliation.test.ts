import type { Server } from 'node:http';
import { createPartnerClient, ErrorCode, type PartnerApiError, type PartnerClient } from '@spa/sdk';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKING_COLUMNS } from '../../src/db/columns.js';
import { recordBookingEvent } from '../../src/webhooks/index.js';
import { makeBookableVenue } from '../support/booking-fixture.js';
import { makeBooking, makeCustomer } from '../support/factories.js';
import { listen } from '../support/listen.js';
import { setup } from '../support/test-app.js';

describe('the SDK lists bookings and iterates the events feed, against the running app', () => {
  const ctx = setup();
  let server: Server;
  let client: PartnerClient;
  let bookingIds: string[];

  const record = (bookingId: string) =>
    ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('bookings')
        .select(BOOKING_COLUMNS)
        .where('id', '=', bookingId)
        .executeTakeFirstOrThrow();
      await recordBookingEvent(trx, 'booking.confirmed', row);
    });

  beforeAll(async () => {
    let baseUrl: string;
    ({ server, baseUrl } = await listen(ctx));
    const f = await makeBookableVenue(ctx.db, ctx.vault);
    const customer = await makeCustomer(ctx.db, f.organisation.id);
    const refs = { venueId: f.venue.id, treatmentId: f.treatment.id, variantId: f.variant.id, customerId: customer.id };
    bookingIds = [];
    for (let n = 0; n < 130; n++) {
      const start = new Date(Date.parse('2026-12-01T09:00:00Z') + n * 3_600_000);
      const booking = await makeBooking(ctx.db, refs, {
        start_at: start.toISOString(),
        end_at: new Date(start.getTime() + 3_600_000).toISOString(),
        status: n % 2 ? 'confirmed' : 'pending',
      });
      bookingIds.push(booking.id);
    }
    for (const id of bookingIds.slice(0, 120)) await record(id);
    client = createPartnerClient({ baseUrl, apiKey: f.key });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('lists bookings with filters as a list, and iterates all of them past one page', async () => {
    const page = await client.listBookings({ status: ['confirmed'], page_size: 5 });
    expect(page.ok && [page.data.length, page.pagination.total_items]).toEqual([5, 65]);
    const all = [];
    for await (const booking of client.iterate.bookings()) all.push(booking.id);
    expect(all).toEqual(bookingIds);
    const pending = [];
    for await (const booking of client.iterate.bookings({ status: 'pending' })) pending.push(booking.status);
    expect(pending).toEqual(Array(65).fill('pending'));
  });

  it('iterates every event once, in order, from the start and from an after, across pages', async () => {
    const seen = [];
    for await (const event of client.iterate.events()) seen.push(event);
    expect(seen.map((e) => e.data.booking.id)).toEqual(bookingIds.slice(0, 120));
    expect(new Set(seen.map((e) => e.id)).size).toBe(120);
    const lastSeen = seen.at(-1)!.id;
    for (const id of bookingIds.slice(120)) await record(id);
    const caughtUp = [];
    for await (const event of client.iterate.events({ after: lastSeen, limit: 3 }))
      caughtUp.push(event.data.booking.id);
    expect(caughtUp).toEqual(bookingIds.slice(120));
    const page = await client.listEvents({ after: lastSeen, type: ['booking.confirmed'], limit: 4 });
    expect(page.ok && [page.data.length, page.has_more, page.next_after]).toEqual([
      4,
      true,
      page.ok && page.data[3]!.id,
    ]);
    const one = await client.getEvent(seen[0]!.id);
    expect(one.ok && one.data).toEqual(seen[0]);
  });

  it('throws the 410 EVENT_CURSOR_EXPIRED of an after no longer kept', async () => {
    const walk = async () => {
      for await (const _ of client.iterate.events({ after: randomUUID() })) void _;
    };
    const failure = (await walk().catch((e: unknown) => e)) as PartnerApiError;
    expect([failure.status, failure.code]).toEqual([410, ErrorCode.EventCursorExpired]);
    const missing = await client.getEvent(randomUUID());
    expect(!missing.ok && [missing.error.status, missing.error.code]).toEqual([404, 'Event not found']);
  });
});
