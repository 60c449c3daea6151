import { randomUUID } from 'node:crypto';
import { WEBHOOK_EVENT_TYPES } from '@spa/contract';
import { Temporal } from 'temporal-polyfill';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/connect.js';
import { BOOKING_COLUMNS } from '../../src/db/columns.js';
import { instantFromDb } from '../../src/lib/instant.js';
import { createRetentionJob } from '../../src/retention/retention-job.js';
import { recordBookingEvent } from '../../src/webhooks/index.js';
import { queueTestEvent } from '../../src/webhooks/test-event.js';
import { error } from '../support/api.js';
import { bookingBody, makeBookableVenue } from '../support/booking-fixture.js';
import {
  makeApiKey,
  makeBooking,
  makeCustomer,
  makeOrganisation,
  makeTreatment,
  makeVenue,
} from '../support/factories.js';
import { setup, type TestContext } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';
import { testDbKind } from '../support/test-db.js';

type Page = { data: { id: string; type: string }[]; has_more: boolean; next_after: string | null };

/** An organisation with two venues, a booking at each, and keys: every venue, one venue, no bookings:read. */
async function world(ctx: TestContext) {
  const org = await makeOrganisation(ctx.db);
  const venues = [await makeVenue(ctx.db, org.id), await makeVenue(ctx.db, org.id)];
  const customer = await makeCustomer(ctx.db, org.id);
  const bookings = [];
  for (const venue of venues) {
    const treatment = await makeTreatment(ctx.db, venue.id);
    bookings.push(
      await makeBooking(
        ctx.db,
        { venueId: venue.id, treatmentId: treatment.id, variantId: treatment.variant.id, customerId: customer.id },
        { status: 'pending' },
      ),
    );
  }
  const { key } = await makeApiKey(ctx.db, ctx.vault, org.id);
  const { key: firstVenueKey } = await makeApiKey(ctx.db, ctx.vault, org.id, { venueId: venues[0]!.id });
  const { key: noRead } = await makeApiKey(ctx.db, ctx.vault, org.id, { scopes: ['venues:read'] });
  return { org, venues, bookings, key, firstVenueKey, noRead };
}

/** Records an event of `bookingId` as a booking change does: the outbox write in a transaction of its own. */
async function recordEvent(
  db: Db,
  bookingId: string,
  type: Parameters<typeof recordBookingEvent>[1] = 'booking.confirmed',
) {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('bookings')
      .select(BOOKING_COLUMNS)
      .where('id', '=', bookingId)
      .executeTakeFirstOrThrow();
    await recordBookingEvent(trx, type, row);
  });
}

/** Every event id of the outbox of `organisationId`, in the feed's order once numbered. */
async function feedOrder(db: Db, organisationId: string) {
  const rows = await db
    .selectFrom('webhook_events')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('booking_id', 'is not', null)
    .orderBy('seq')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * A receiver catching up: pages from `after` with `limit` until has_more is false, calling `between` after each
 * page (new events arriving while it pages); every id it was given, in order.
 */
async function catchUp(
  ctx: TestContext,
  key: string,
  options: { after?: string | null; limit: number; between?: (page: number) => Promise<void> },
) {
  const seen: string[] = [];
  let after = options.after ?? null;
  for (let page = 0; ; page++) {
    const res = await ctx.api.get(`/v1/events?limit=${options.limit}${after ? `&after=${after}` : ''}`, key);
    expect(res.status).toBe(200);
    const body = res.body as Page;
    seen.push(...body.data.map((e) => e.id));
    after = body.next_after;
    await options.between?.(page);
    if (!body.has_more) return { seen, after };
  }
}

describe('GET /v1/events', () => {
  const ctx = setup();
  let w: Awaited<ReturnType<typeof world>>;

  beforeAll(async () => {
    w = await world(ctx);
  });

  it('records events with no webhook endpoint and lists them oldest first, with the webhook body as sent', async () => {
    const f = await makeBookableVenue(ctx.db, ctx.vault, { rooms: 2, therapists: 2 });
    const first = await ctx.v1.book(f.venue.id, bookingBody(f.variant.id), f.key);
    expectStatus(first, 201);
    const second = await ctx.v1.book(
      f.venue.id,
      bookingBody(f.variant.id, { start_at: '2026-11-25T11:00:00Z', external_id: 'second' }),
      f.key,
    );
    expectStatus(second, 201);
    const cancelled = await ctx.v1.cancel(first.body.data.id, f.key);
    expectStatus(cancelled, 200);
    expect(await ctx.db.selectFrom('webhook_endpoints').select('id').execute()).toEqual([]);

    const res = await ctx.partner(f.key).events.list({ query: {} });
    expectStatus(res, 200);
    expect(res.body.data.map((e) => [e.type, e.data.booking.id])).toEqual([
      ['booking.created', first.body.data.id],
      ['booking.created', second.body.data.id],
      ['booking.cancelled', first.body.data.id],
    ]);
    expect(res.body.has_more).toBe(false);
    expect(res.body.next_after).toBe(res.body.data[2]!.id);
    expect(res.body.data[2]!.data.booking).toEqual(cancelled.body.data);
    const stored = await ctx.db.selectFrom('webhook_events').select(['id', 'body']).execute();
    for (const event of res.body.data) {
      // The webhook body as sent (its livemode included), with the event's id beside it.
      const { id, ...body } = event;
      expect(body.livemode).toBe(true);
      expect(body).toEqual(JSON.parse(stored.find((s) => s.id === id)!.body));
    }
  });

  it('reads one event by id as the feed lists it, and answers 404 for one the key cannot see', async () => {
    await recordEvent(ctx.db, w.bookings[0]!.id, 'booking.created');
    await recordEvent(ctx.db, w.bookings[1]!.id, 'booking.created');
    const listed = (await ctx.api.get('/v1/events', w.key)).body as Page;
    const [atFirst, atSecond] = listed.data;
    const one = await ctx.partner(w.key).events.get({ params: { event_id: atFirst!.id } });
    expectStatus(one, 200);
    expect(one.body.data).toEqual(atFirst);
    const restricted = await ctx.api.get(`/v1/events/${atSecond!.id}`, w.firstVenueKey);
    expect([restricted.status, restricted.body]).toEqual([404, error('Event not found')]);
    const unknown = await ctx.api.get(`/v1/events/${randomUUID()}`, w.key);
    expect([unknown.status, unknown.body]).toEqual([404, error('Event not found')]);
    const bad = await ctx.api.get('/v1/events/not-an-id', w.key);
    expect([bad.status, bad.body]).toEqual([
      400,
      error('event_id must be a UUID', { details: [{ path: 'event_id', message: 'event_id must be a UUID' }] }),
    ]);
    const other = await makeBookableVenue(ctx.db, ctx.vault);
    const foreign = await ctx.api.get(`/v1/events/${atFirst!.id}`, other.key);
    expect([foreign.status, foreign.body]).toEqual([404, error('Event not found')]);
  });

  it("shows a venue-restricted key only its venue's events", async () => {
    const all = (await ctx.api.get('/v1/events', w.key)).body as Page;
    const mine = (await ctx.api.get('/v1/events', w.firstVenueKey)).body as Page;
    const firstVenueEvents = await ctx.db
      .selectFrom('webhook_events')
      .select('id')
      .where('venue_id', '=', w.venues[0]!.id)
      .orderBy('seq')
      .execute();
    expect(mine.data.map((e) => e.id)).toEqual(firstVenueEvents.map((e) => e.id));
    expect(all.data.length).toBeGreaterThan(mine.data.length);
  });

  it('filters by type (a comma list) and by booking', async () => {
    await recordEvent(ctx.db, w.bookings[0]!.id, 'booking.confirmed');
    await recordEvent(ctx.db, w.bookings[0]!.id, 'booking.cancelled');
    const confirmed = (await ctx.api.get('/v1/events?type=booking.confirmed,booking.cancelled', w.key)).body as Page;
    expect(confirmed.data.map((e) => e.type)).toEqual(['booking.confirmed', 'booking.cancelled']);
    const ofBooking = (await ctx.api.get(`/v1/events?booking_id=${w.bookings[1]!.id}`, w.key)).body as Page;
    expect(ofBooking.data.map((e) => e.type)).toEqual(['booking.created']);
  });

  it('pages with limit and after, and an empty page keeps the after it was given', async () => {
    const all = await feedOrder(ctx.db, w.org.id);
    expect(all.length).toBe(4);
    const first = (await ctx.api.get('/v1/events?limit=3', w.key)).body as Page;
    expect(first.data.map((e) => e.id)).toEqual(all.slice(0, 3));
    expect([first.has_more, first.next_after]).toEqual([true, all[2]]);
    const rest = (await ctx.api.get(`/v1/events?limit=3&after=${first.next_after}`, w.key)).body as Page;
    expect(rest.data.map((e) => e.id)).toEqual(all.slice(3));
    expect([rest.has_more, rest.next_after]).toEqual([false, all[3]]);
    const empty = (await ctx.api.get(`/v1/events?after=${all[3]}`, w.key)).body as Page;
    expect(empty).toEqual({ data: [], has_more: false, next_after: all[3] });
    const fresh = await makeBookableVenue(ctx.db, ctx.vault);
    expect((await ctx.api.get('/v1/events', fresh.key)).body).toEqual({ data: [], has_more: false, next_after: null });
  });

  it('leaves test deliveries out of the feed', async () => {
    const endpointId = randomUUID();
    await ctx.db
      .insertInto('webhook_endpoints')
      .values({
        id: endpointId,
        organisation_id: w.org.id,
        url: 'https://example.com/hook',
        secret_encrypted: 'x',
        created_at: '2026-11-01T00:00:00Z',
      })
      .execute();
    const before = (await ctx.api.get('/v1/events', w.key)).body as Page;
    const { eventId } = await queueTestEvent(ctx.db, endpointId);
    const after = (await ctx.api.get('/v1/events', w.key)).body as Page;
    expect(after.data.map((e) => e.id)).toEqual(before.data.map((e) => e.id));
    const test = await ctx.api.get(`/v1/events/${eventId}`, w.key);
    expect(test.status).toBe(404);
    await ctx.db.deleteFrom('webhook_endpoints').where('id', '=', endpointId).execute();
  });

  it('needs bookings:read', async () => {
    const res = await ctx.api.get('/v1/events', w.noRead);
    expect([res.status, res.body]).toEqual([403, error('Insufficient scope', { missing: ['bookings:read'] })]);
    const one = await ctx.api.get(`/v1/events/${randomUUID()}`, w.noRead);
    expect(one.status).toBe(403);
  });

  it.each([
    ['?limit=0', 'limit', 'limit must be an integer from 1 to 100'],
    ['?limit=101', 'limit', 'limit must be an integer from 1 to 100'],
    ['?limit=ten', 'limit', 'limit must be an integer from 1 to 100'],
    ['?after=42', 'after', 'after must be a UUID'],
    ['?booking_id=b-1', 'booking_id', 'booking_id must be a UUID'],
    [
      '?type=booking.created,booking.lost',
      'type',
      `type must be a comma-separated list of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    ],
  ])('answers 400 for %s', async (query, path, message) => {
    const res = await ctx.api.get(`/v1/events${query}`, w.key);
    expect([res.status, res.body]).toEqual([400, error(message, { details: [{ path, message }] })]);
  });

  it('answers 410 EVENT_CURSOR_EXPIRED for an after that is no longer kept, and keeps events until then', async () => {
    const kept = await feedOrder(ctx.db, w.org.id);
    const retention = (now: string) =>
      createRetentionJob({
        db: ctx.db,
        clock: { now: () => Temporal.Instant.from(now) },
        webhookRetentionDays: 30,
        pauseMs: 1,
      }).runOnce();
    // Within the retention period nothing goes, endpoint or not.
    const createdAt = await ctx.db
      .selectFrom('webhook_events')
      .select('created_at')
      .where('id', '=', kept[0]!)
      .executeTakeFirstOrThrow();
    const oneDayShort = instantFromDb(createdAt.created_at)
      .add({ hours: 29 * 24 })
      .toString();
    await retention(oneDayShort);
    expect(await feedOrder(ctx.db, w.org.id)).toEqual(kept);
    // Past it, every event of this world goes; a cursor on one of them is expired, as is an id never issued.
    await retention('2030-01-01T00:00:00Z');
    expect(await feedOrder(ctx.db, w.org.id)).toEqual([]);
    for (const after of [kept[0]!, randomUUID()]) {
      const res = await ctx.api.get(`/v1/events?after=${after}`, w.key);
      expect([res.status, res.body]).toEqual([410, error('EVENT_CURSOR_EXPIRED')]);
    }
  });
});

describe('catching up after downtime', () => {
  const ctx = setup();

  it('sees every event exactly once, in order, with no new event while it pages', async () => {
    const w = await world(ctx);
    for (let i = 0; i < 23; i++) await recordEvent(ctx.db, w.bookings[i % 2]!.id);
    const { seen } = await catchUp(ctx, w.key, { limit: 5 });
    expect(seen).toEqual(await feedOrder(ctx.db, w.org.id));
    expect(new Set(seen).size).toBe(23);
  });

  it('sees every event exactly once, in order, while new events arrive between its pages', async () => {
    const w = await world(ctx);
    for (let i = 0; i < 10; i++) await recordEvent(ctx.db, w.bookings[0]!.id);
    const downAt = (await catchUp(ctx, w.key, { limit: 100 })).after;
    // Down: 12 events it missed.
    for (let i = 0; i < 12; i++) await recordEvent(ctx.db, w.bookings[i % 2]!.id);
    const { seen } = await catchUp(ctx, w.key, {
      after: downAt,
      limit: 4,
      between: async (page) => {
        if (page < 5) for (let i = 0; i < 3; i++) await recordEvent(ctx.db, w.bookings[1]!.id);
      },
    });
    const all = await feedOrder(ctx.db, w.org.id);
    expect(seen).toEqual(all.slice(all.indexOf(downAt!) + 1));
    expect(seen.length).toBe(12 + 15);
  });
});

describe.skipIf(testDbKind !== 'postgres')('events feed order under concurrent commits (PostgreSQL)', () => {
  const ctx = setup({ poolSize: 20 });

  it('lists an event that commits after a later one behind the cursor that passed the later one', async () => {
    const w = await world(ctx);
    const start = (await catchUp(ctx, w.key, { limit: 100 })).after;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let recorded!: () => void;
    const inserted = new Promise<void>((resolve) => (recorded = resolve));
    // The slow transaction writes its event first and commits last.
    const slow = ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('bookings')
        .select(BOOKING_COLUMNS)
        .where('id', '=', w.bookings[0]!.id)
        .executeTakeFirstOrThrow();
      await recordBookingEvent(trx, 'booking.confirmed', row);
      recorded();
      await held;
    });
    await inserted;
    await recordEvent(ctx.db, w.bookings[1]!.id, 'booking.cancelled');
    const before = await catchUp(ctx, w.key, { after: start, limit: 10 });
    expect(before.seen).toHaveLength(1);
    release();
    await slow;
    const after = await catchUp(ctx, w.key, { after: before.after, limit: 10 });
    expect(after.seen).toHaveLength(1);
    const types = await ctx.db
      .selectFrom('webhook_events')
      .select(['id', 'type'])
      .where('id', 'in', [...before.seen, ...after.seen])
      .execute();
    const typeOf = (id: string) => types.find((t) => t.id === id)!.type;
    expect([typeOf(before.seen[0]!), typeOf(after.seen[0]!)]).toEqual(['booking.cancelled', 'booking.confirmed']);
  });

  it('sees every event exactly once, in order, while other connections commit events out of order', async () => {
    const w = await world(ctx);
    const writers = 8;
    const perWriter = 12;
    let writing = true;
    // Each writer's transaction holds its event a random while before committing, so commits overtake each other.
    const written = Promise.all(
      Array.from({ length: writers }, async (_, n) => {
        for (let i = 0; i < perWriter; i++) {
          await ctx.db.transaction().execute(async (trx) => {
            const row = await trx
              .selectFrom('bookings')
              .select(BOOKING_COLUMNS)
              .where('id', '=', w.bookings[n % 2]!.id)
              .executeTakeFirstOrThrow();
            await recordBookingEvent(trx, 'booking.confirmed', row);
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 30));
          });
        }
      }),
    ).finally(() => (writing = false));
    const seen: string[] = [];
    let after: string | null = null;
    // Reads while the writers write, then once more after the last commit.
    for (let last = false; !last;) {
      last = !writing;
      const page = await catchUp(ctx, w.key, { after, limit: 7 });
      seen.push(...page.seen);
      after = page.after;
    }
    await written;
    const all = await feedOrder(ctx.db, w.org.id);
    expect(all).toHaveLength(writers * perWriter);
    expect(seen).toEqual(all);
  });
});
