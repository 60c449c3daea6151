import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importVenueData } from '../../src/import/import-venue-data.js';
import { webhookEndpoints } from '../../src/webhooks/index.js';
import { makeVenueFile } from '../import/venue-file.js';
import { createTestContext, type TestContext } from '../support/test-app.js';

describe('an import that changes a booking’s status writes its event', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  const events = () =>
    ctx.db
      .selectFrom('webhook_events as e')
      .leftJoin('webhook_deliveries as d', 'd.event_id', 'e.id')
      .select(['e.type', 'e.booking_id', 'e.body', 'd.status'])
      .orderBy('e.created_at')
      .execute();

  it('records one event per status change, none for new or unchanged bookings, with a delivery per endpoint', async () => {
    const { file, booking } = makeVenueFile();
    const pending = booking({ status: 'pending', start_at: '2026-12-02T10:00:00+01:00' });
    const confirmed = booking({ start_at: '2026-12-03T10:00:00+01:00' });
    file.bookings = [pending, confirmed];
    file.venues[0]!.therapist_response_minutes = 30;
    await importVenueData(ctx.db, file, ctx.vault, Temporal.Instant.from('2026-11-22T08:00:00Z'));
    const venue = await ctx.db
      .selectFrom('venues')
      .select('therapist_response_minutes')
      .where('id', '=', file.venues[0]!.id)
      .executeTakeFirstOrThrow();
    expect(venue.therapist_response_minutes).toBe(30);
    await webhookEndpoints.addEndpoint(ctx.db, ctx.vault, {
      orgSlug: file.organisations[0]!.slug,
      url: 'http://127.0.0.1:9/hooks',
      allowPrivateNetworks: true,
    });
    expect(await events()).toEqual([]); // a first import loads records; it announces nothing

    file.bookings = [
      { ...pending, status: 'confirmed' },
      { ...confirmed, notes: 'VIP' },
    ];
    await importVenueData(ctx.db, file, ctx.vault, Temporal.Instant.from('2026-11-22T09:00:00Z'));
    const [event, ...rest] = await events();
    expect(rest).toEqual([]);
    expect(event).toMatchObject({ type: 'booking.confirmed', booking_id: pending.id, status: 'pending' });
    expect(JSON.parse(event!.body)).toMatchObject({
      type: 'booking.confirmed',
      timestamp: '2026-11-22T09:00:00Z',
      data: { booking: { id: pending.id, status: 'confirmed', updated_at: '2026-11-22T09:00:00Z' } },
    });

    file.bookings = [{ ...pending, status: 'cancelled' }, confirmed];
    await importVenueData(ctx.db, file, ctx.vault, Temporal.Instant.from('2026-11-22T10:00:00Z'));
    expect((await events()).map((e) => e.type)).toEqual(['booking.confirmed', 'booking.cancelled']);
  });
});
