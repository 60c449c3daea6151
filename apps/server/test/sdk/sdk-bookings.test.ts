import type { Server } from 'node:http';
import {
  type CreateBookingInput,
  createPartnerClient,
  ErrorCode,
  type PartnerApiError,
  type PartnerClient,
} from '@spa/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBookableVenue } from '../support/booking-fixture.js';
import { makeApiKey, makeOrganisation } from '../support/factories.js';
import { listen } from '../support/listen.js';
import { setup } from '../support/test-app.js';

describe('the SDK books and cancels, against the running app', () => {
  const ctx = setup();
  let server: Server;
  let baseUrl: string;
  let f: Awaited<ReturnType<typeof makeBookableVenue>>;
  let client: PartnerClient;

  const body = (overrides: Partial<CreateBookingInput> = {}): CreateBookingInput => ({
    variant_id: f.variant.id,
    start_at: '2026-11-26T09:00:00Z',
    guest: { first_name: 'Claire', last_name: 'Martin', email: 'claire.martin@example.com' },
    external_reference: 'hotel.ROOM-412',
    price_paid: { amount: 90, currency: 'EUR' },
    ...overrides,
  });

  beforeAll(async () => {
    ({ server, baseUrl } = await listen(ctx));
    f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 1, therapists: 1 });
    client = createPartnerClient({ baseUrl, apiKey: f.key });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('creates a pending booking (201), replays it for the same external_id (200, replayed), and reports slot_unavailable', async () => {
    const created = await client.createBooking(f.venue.slug, body({ external_id: 'sdk-1' }));
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect([created.status, created.replayed]).toEqual([201, false]);
    expect(created.data).toMatchObject({
      status: 'pending',
      venue_id: f.venue.id,
      variant_id: f.variant.id,
      guest_count: 1,
      external_id: 'sdk-1',
      client_type: 'hotel',
      total_price: { amount: 90, currency: 'EUR' },
      payment_method: 'partner_billed',
      cancellation: null,
    });
    const replay = await client.createBooking(f.venue.slug, body({ external_id: 'sdk-1' }));
    expect(replay.ok && [replay.status, replay.replayed, replay.data.id]).toEqual([200, true, created.data.id]);
    const taken = await client.createBooking(f.venue.slug, body({ external_id: 'sdk-2' }));
    expect(!taken.ok && [taken.error.status, taken.error.code]).toEqual([409, ErrorCode.SlotUnavailable]);
  });

  it('reports 400 with details, 404 Variant not found and 422 on the currency', async () => {
    const invalid = await client.createBooking(
      f.venue.id,
      body({ guest: { first_name: 'Claire', last_name: 'Martin', email: 'not-an-email' } }),
    );
    expect(!invalid.ok && [invalid.error.status, invalid.error.details]).toEqual([
      400,
      [{ path: 'guest.email', message: 'guest.email must be a valid email address' }],
    ]);
    const variant = await client.createBooking(
      f.venue.id,
      body({ variant_id: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(!variant.ok && [variant.error.status, variant.error.code]).toEqual([404, 'Variant not found']);
    const currency = await client.createBooking(f.venue.id, body({ price_paid: { amount: 90, currency: 'USD' } }));
    expect(!currency.ok && [currency.error.status, currency.error.code, currency.error.text]).toEqual([
      422,
      ErrorCode.CurrencyMismatch,
      'price_paid.currency must equal the venue currency (EUR)',
    ]);
  });

  it('reports 403 Insufficient scope with bookings:write missing', async () => {
    const { key } = await makeApiKey(ctx.db, ctx.vault, f.organisation.id, {
      scopes: ['venues:read', 'availability:read'],
    });
    const denied = await createPartnerClient({ baseUrl, apiKey: key }).createBooking(f.venue.id, body());
    expect(!denied.ok && [denied.error.status, denied.error.code, denied.error.missing]).toEqual([
      403,
      'Insufficient scope',
      ['bookings:write'],
    ]);
  });

  it('cancels by ext:, then answers the upper-case codes of the cancel endpoint', async () => {
    const created = await client.createBooking(
      f.venue.id,
      body({ start_at: '2026-11-27T09:00:00Z', external_id: 'sdk-cancel' }),
    );
    expect(created.ok).toBe(true);
    const cancelled = await client.cancelBooking('ext:sdk-cancel', { reason: 'Guest ill', cancelled_by: 'customer' });
    expect(
      cancelled.ok && [
        cancelled.data.status,
        cancelled.data.cancellation?.cancelled_by,
        cancelled.data.cancellation?.fee,
      ],
    ).toEqual(['cancelled', 'customer', { amount: 0, currency: 'EUR' }]);
    const again = await client.cancelBooking('ext:sdk-cancel', { reason: 'Again' });
    expect(!again.ok && [again.error.status, again.error.code, again.error.message]).toEqual([
      422,
      ErrorCode.BookingAlreadyCancelled,
      expect.stringMatching(/^422 BOOKING_ALREADY_CANCELLED: Booking is already cancelled/),
    ]);
    const unknown = await client.cancelBooking('00000000-0000-4000-8000-000000000000', { reason: 'Nope' });
    expect(!unknown.ok && [unknown.error.status, unknown.error.code]).toEqual([404, 'BOOKING_NOT_FOUND']);

    const stranger = await makeOrganisation(ctx.db);
    const { key } = await makeApiKey(ctx.db, ctx.vault, stranger.id);
    if (!created.ok) return;
    const foreign = await createPartnerClient({ baseUrl, apiKey: key }).cancelBooking(created.data.id, {
      reason: 'Not mine',
    });
    expect(!foreign.ok && [foreign.error.status, foreign.error.code, foreign.error.body]).toEqual([
      403,
      ErrorCode.BookingForbidden,
      {
        error: 'FORBIDDEN',
        message: 'This booking belongs to a venue your key cannot access',
        request_id: expect.any(String),
      },
    ]);
  });

  it('reschedules by ext:, again as a no-op, and reports RESCHEDULE_FEE_APPLIES with its fee and slot_unavailable', async () => {
    const created = await client.createBooking(
      f.venue.slug,
      body({ start_at: '2026-11-27T09:00:00Z', external_id: 'sdk-move' }),
    );
    if (!created.ok) throw created.error;
    const moved = await client.rescheduleBooking('ext:sdk-move', { start_at: '2026-11-27T13:00:00Z' });
    expect(moved.ok && [moved.status, moved.data.id, moved.data.start_at]).toEqual([
      200,
      created.data.id,
      '2026-11-27T13:00:00Z',
    ]);
    const again = await client.rescheduleBooking(created.data.id, { start_at: '2026-11-27T13:00:00Z' });
    expect(again.ok && again.data.updated_at).toBe(moved.ok && moved.data.updated_at);
    const other = await client.createBooking(
      f.venue.slug,
      body({ start_at: '2026-11-27T15:00:00Z', external_id: 'sdk-other' }),
    );
    expect(other.ok).toBe(true);
    const taken = await client.rescheduleBooking(created.data.id, { start_at: '2026-11-27T15:00:00Z' });
    expect(!taken.ok && [taken.error.status, taken.error.code]).toEqual([409, ErrorCode.SlotUnavailable]);
    ctx.clock.set('2026-11-27T12:00:00Z'); // one hour before: the 100% tier
    try {
      const fee = await client.rescheduleBooking(created.data.id, { start_at: '2026-11-27T16:00:00Z' });
      expect(!fee.ok && [fee.error.status, fee.error.code, fee.error.fee]).toEqual([
        422,
        ErrorCode.RescheduleFeeApplies,
        { amount: 90, currency: 'EUR' },
      ]);
    } finally {
      ctx.clock.set('2026-11-22T08:00:00Z');
    }
  });

  it('reads and cancels by an external id as given, encoded once (a slash included)', async () => {
    const created = await client.createBooking(
      f.venue.id,
      body({ start_at: '2026-11-27T11:00:00Z', external_id: 'pms/58213 b' }),
    );
    if (!created.ok) throw created.error;
    const read = await client.getBookingByExternalId('pms/58213 b');
    expect(read.ok && read.data.id).toBe(created.data.id);
    const cancelled = await client.cancelBookingByExternalId('pms/58213 b', { reason: 'Guest ill' });
    expect(cancelled.ok && cancelled.data.status).toBe('cancelled');
    const unknown = await client.getBookingByExternalId('pms/no-such');
    expect(!unknown.ok && [unknown.error.status, unknown.error.code]).toEqual([404, ErrorCode.NoSuchBooking]);
  });

  it('refuses a missing or malformed baseUrl with a sentence that names it', () => {
    const options = (baseUrl: unknown) => ({ baseUrl, apiKey: f.key }) as Parameters<typeof createPartnerClient>[0];
    expect(() => createPartnerClient(options(undefined))).toThrow(/baseUrl is required/);
    expect(() => createPartnerClient(options('api.example.com'))).toThrow(/baseUrl "api.example.com" is not a URL/);
    expect(() => createPartnerClient(options('ftp://api.example.com'))).toThrow(/must be http or https/);
    expect(() => createPartnerClient(options('https://partner:secret@api.example.com'))).toThrow(
      'createPartnerClient: baseUrl must not hold a user name or password; the key goes in apiKey',
    );
    for (const url of ['https://api.example.com/?v=1', 'https://api.example.com/#v1']) {
      expect(() => createPartnerClient(options(url))).toThrow(
        'createPartnerClient: baseUrl must not have a query (?…) or a fragment (#…)',
      );
    }
  });
});

/** What must not compile: checked by `pnpm typecheck`, never run. */
export function typeChecks(api: PartnerClient, error: PartnerApiError) {
  // @ts-expect-error a misspelt error code is not an ErrorCode
  if (error.code === 'Venue not fund') return;
  // @ts-expect-error a day and a range at once
  void api.getVariantAvailability('v', 'x', { date: '2030-06-04', from: '2030-06-04', to: '2030-06-05' });
  // @ts-expect-error neither a day nor a range
  void api.getVariantAvailability('v', 'x', { guest_count: 2 });
  // @ts-expect-error a range needs both ends
  void api.getVariantAvailability('v', 'x', { from: '2030-06-04' });
  void api.getVariantAvailability('v', 'x', { from: '2030-06-04', to: '2030-06-05', guest_count: 2 });
  // @ts-expect-error a timeout is milliseconds or false
  void api.listVenues({}, { timeout: '5s' });
  // @ts-expect-error maxRetries is a number
  void api.raw.venues.list({ query: {}, maxRetries: true });
  void api.raw.venues.list({ query: {}, timeout: 5_000, maxRetries: 0 });
}
