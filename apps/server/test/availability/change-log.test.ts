import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_APPLICATION_NAME, type NotificationListener } from '../../src/db/notifications.js';
import { AVAILABILITY_CHANGES_CHANNEL } from '../../src/migrations/0010_availability_changes.js';
import type { Api } from '../support/api.js';
import { type BookableVenue, makeBookableVenue } from '../support/booking-fixture.js';
import { withDatabase } from '../support/postgres-admin.js';
import { createTestContext, type TestContext } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';
import { uncachedApi } from './uncached-truth.js';

const DATE = '2026-11-25';

/**
 * The read barrier for writers that go around the server: an operator's SQL on a connection of its own (on PGlite,
 * the one session, through no route of the app). Their commits send no notice of any kind and drop nothing in this
 * process; a read that begins after such a commit finished still lists what the database says, answered from
 * memory before the commit and read again after it.
 */
describe('the availability cache and writers that do not notify', () => {
  let ctx: TestContext;
  let truth: Api;
  let first: BookableVenue;
  let second: BookableVenue;
  /** Plain SQL from elsewhere: a connection of its own on PostgreSQL; PGlite has one session. */
  const operators: pg.Client[] = [];
  const operator = async (): Promise<(text: string) => Promise<unknown>> => {
    if (testDbKind !== 'postgres') return (text) => sql.raw(text).execute(ctx.db);
    const client = new pg.Client({ connectionString: withDatabase(process.env.DATABASE_URL!, ctx.handle.name!) });
    await client.connect();
    operators.push(client);
    return (text) => client.query(text);
  };

  beforeAll(async () => {
    ctx = await createTestContext();
    truth = uncachedApi(ctx);
    first = await makeBookableVenue(ctx.db, ctx.vault);
    second = await makeBookableVenue(ctx.db, ctx.vault, { therapists: 2 });
  });
  afterAll(async () => {
    for (const client of operators) await client.end();
    await ctx.close();
  });

  const listing = async (api: Api, at: BookableVenue) => {
    const res = await api.availability(at.venue.id, at.variant.id, `date=${DATE}`, at.key);
    expect(res.status).toBe(200);
    return res.body as { data: { slots: { start_at: string; available_capacity: number }[] } };
  };
  /** Reads until one is answered from memory, so the next read's freshness is the barrier's doing. */
  const warm = async (at: BookableVenue) => {
    // A fill that raced with the log's report of the venue's own set-up is served but not kept: read again.
    for (let attempt = 0; attempt < 20; attempt++) {
      const hits = ctx.availability.stats.hits;
      const held = await listing(ctx.api, at);
      if (ctx.availability.stats.hits > hits) return held;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the availability cache never answered from memory');
  };

  it("reflects an operator's committed SQL on the very next read", async () => {
    const before = await warm(first);
    expect(before.data.slots.length).toBeGreaterThan(0);
    const run = await operator();
    await run(`update therapist_shifts set end_time = '12:00' where venue_id = '${first.venue.id}'`);
    const after = await listing(ctx.api, first);
    expect(after).toEqual(await listing(truth, first));
    expect(after).not.toEqual(before);

    await run(`delete from therapist_shifts where venue_id = '${first.venue.id}'`);
    expect((await listing(ctx.api, first)).data.slots).toEqual([]);
  });

  it('drops everything on a TRUNCATE of a table availability reads', async () => {
    const before = await warm(second);
    const run = await operator();
    // Rooms go with their reservations and treatment rooms; the venue has no room left to treat in.
    await run(`truncate rooms cascade`);
    const after = await listing(ctx.api, second);
    expect(after).toEqual(await listing(truth, second));
    expect(after).not.toEqual(before);
  });
});

/**
 * A change's position is its writer's transaction, read by snapshot (db/change-log.ts): a transaction that began
 * and wrote first, and so holds the smaller id, but commits after a later one has been read, is read too. (A
 * reader that kept the largest sequence number it had seen would skip it, and keep a stale answer for good.)
 */
describe.runIf(testDbKind === 'postgres')('the change log read in commit order, not id order', () => {
  let ctx: TestContext;
  let truth: Api;
  let early: BookableVenue;
  let late: BookableVenue;
  let cut: BookableVenue;
  let a: pg.Client;
  let b: pg.Client;

  beforeAll(async () => {
    ctx = await createTestContext();
    truth = uncachedApi(ctx);
    early = await makeBookableVenue(ctx.db, ctx.vault);
    late = await makeBookableVenue(ctx.db, ctx.vault);
    cut = await makeBookableVenue(ctx.db, ctx.vault);
    const url = withDatabase(process.env.DATABASE_URL!, ctx.handle.name!);
    a = new pg.Client({ connectionString: url });
    b = new pg.Client({ connectionString: url });
    await Promise.all([a.connect(), b.connect()]);
  });
  afterAll(async () => {
    await Promise.all([a.end(), b.end()]);
    await ctx.close();
  });

  const listing = async (api: Api, at: BookableVenue) => {
    const res = await api.availability(at.venue.id, at.variant.id, `date=${DATE}`, at.key);
    expect(res.status).toBe(200);
    return res.body as { data: { slots: unknown[] } };
  };
  const xid = async (client: pg.Client) =>
    BigInt((await client.query<{ xid: string }>('select pg_current_xact_id()::text as xid')).rows[0]!.xid);

  it('hands over a change whose smaller transaction id commits after a larger one was read', async () => {
    for (const at of [early, late, early, late]) await listing(ctx.api, at);

    await a.query('begin');
    await a.query(`delete from therapist_shifts where venue_id = '${early.venue.id}'`);
    await b.query('begin');
    await b.query(`delete from therapist_shifts where venue_id = '${late.venue.id}'`);
    // The case that matters: the first writer holds the smaller id.
    expect(await xid(a)).toBeLessThan(await xid(b));
    await b.query('commit');

    // The later writer's change is read (its venue answered afresh), the earlier one's is not yet committed.
    expect((await listing(ctx.api, late)).data.slots).toEqual([]);
    const hits = ctx.availability.stats.hits;
    const held = await listing(ctx.api, early);
    expect(held.data.slots.length).toBeGreaterThan(0);
    expect(ctx.availability.stats.hits).toBeGreaterThan(hits);

    await a.query('commit');
    expect((await listing(ctx.api, early)).data.slots).toEqual([]);
    expect(await listing(ctx.api, early)).toEqual(await listing(truth, early));
  });

  it('names each changed venue once per read, however many rows its transaction wrote', async () => {
    const heard: string[] = [];
    let listener: NotificationListener | undefined;
    try {
      listener = await ctx.handle.listen(AVAILABILITY_CHANGES_CHANNEL, {
        onNotify: (payload) => heard.push(payload),
        onLive: () => undefined,
      });
      await expect.poll(() => listener!.isCurrent(), { timeout: 5_000 }).toBe(true);
      await a.query('begin');
      await a.query(`update rooms set name = name || '.' where venue_id = '${early.venue.id}'`);
      await a.query(`update rooms set name = name || '.' where venue_id = '${early.venue.id}'`);
      await a.query('commit');
      await listener.sync();
      expect(heard).toEqual([early.venue.id]);
      await b.query('truncate venue_blocks');
      await listener.sync();
      expect(heard).toEqual([early.venue.id, '*']);
    } finally {
      await listener?.close();
    }
  });

  it('stops trusting what it holds when its listening connection is cut, and catches up once it is back', async () => {
    await listing(ctx.api, cut);
    const before = await listing(ctx.api, cut);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`.execute(ctx.db);
    await a.query(`update therapist_shifts set end_time = '12:00' where venue_id = '${cut.venue.id}'`);
    const during = await listing(ctx.api, cut);
    expect(during).toEqual(await listing(truth, cut));
    expect(during).not.toEqual(before);
    await expect.poll(() => ctx.availability.isLive, { timeout: 10_000 }).toBe(true);
    await a.query(`update therapist_shifts set end_time = '14:00' where venue_id = '${cut.venue.id}'`);
    expect(await listing(ctx.api, cut)).toEqual(await listing(truth, cut));
    expect(await listing(ctx.api, cut)).toEqual(await listing(truth, cut));
  });
});
