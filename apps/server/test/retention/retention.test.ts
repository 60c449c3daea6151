import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { advisoryLockKey } from '../../src/db/advisory-lock.js';
import { Metrics } from '../../src/metrics/metrics.js';
import { createRetentionJob } from '../../src/retention/retention-job.js';
import { retentionDeletedCounter } from '../../src/retention/retention-metrics.js';
import { makeBooking, makeCustomer, makeOrganisation, makeTreatment, makeVenue } from '../support/factories.js';
import { setup, TEST_NOW } from '../support/test-app.js';
import { makePerson } from '../dashboard/dashboard-support.js';
import { testDbKind } from '../support/test-db.js';

const NOW = Temporal.Instant.from(TEST_NOW);
const daysAgo = (days: number) => NOW.subtract({ hours: days * 24 }).toString();

type Delivery = { status: 'pending' | 'succeeded' | 'failed'; attempts: number };

describe('retention: expired rows deleted in small batches', () => {
  const ctx = setup();

  /** A booking of a fresh organisation with one webhook endpoint; `event` adds an event with its deliveries. */
  async function world() {
    const organisation = await makeOrganisation(ctx.db);
    const venue = await makeVenue(ctx.db, organisation.id);
    const treatment = await makeTreatment(ctx.db, venue.id);
    const customer = await makeCustomer(ctx.db, organisation.id);
    const booking = await makeBooking(ctx.db, {
      venueId: venue.id,
      treatmentId: treatment.id,
      variantId: treatment.variant.id,
      customerId: customer.id,
    });
    const endpoints = [randomUUID(), randomUUID()];
    for (const id of endpoints)
      await ctx.db
        .insertInto('webhook_endpoints')
        .values({
          id,
          organisation_id: organisation.id,
          url: 'https://example.com/hook',
          secret_encrypted: 'x',
          created_at: daysAgo(100),
        })
        .execute();
    return {
      async event(createdAt: string, deliveries: Delivery[]) {
        const id = randomUUID();
        await ctx.db
          .insertInto('webhook_events')
          .values({
            id,
            type: 'booking.created',
            booking_id: booking.id,
            organisation_id: organisation.id,
            venue_id: venue.id,
            body: '{}',
            created_at: createdAt,
          })
          .execute();
        for (const [i, d] of deliveries.entries()) {
          const { id: deliveryId } = await ctx.db
            .insertInto('webhook_deliveries')
            .values({
              event_id: id,
              endpoint_id: endpoints[i]!,
              attempts: d.attempts,
              next_attempt_at: createdAt,
              completed_at: d.status === 'pending' ? null : createdAt,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          // A delivery is written pending; the engine settles it.
          await ctx.db
            .updateTable('webhook_deliveries')
            .set({ status: d.status })
            .where('id', '=', deliveryId)
            .execute();
          for (let attempt = 1; attempt <= d.attempts; attempt++)
            await ctx.db
              .insertInto('webhook_attempts')
              .values({ delivery_id: deliveryId, attempt, started_at: createdAt, duration_ms: 5, status_code: 500 })
              .execute();
        }
        return id;
      },
    };
  }

  async function remaining(eventIds: string[]) {
    const events = await ctx.db.selectFrom('webhook_events').select('id').where('id', 'in', eventIds).execute();
    return events.map((e) => e.id).sort();
  }

  async function count(table: 'webhook_events' | 'webhook_deliveries' | 'webhook_attempts' | 'rate_limits') {
    const { n } = await ctx.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  it('deletes settled webhook events past the retention period with their deliveries and attempts, keeps the rest, in batches', async () => {
    const w = await world();
    const succeeded = { status: 'succeeded', attempts: 2 } as const;
    const oldDelivered: string[] = [];
    for (let i = 0; i < 5; i++) oldDelivered.push(await w.event(daysAgo(40 + i), [succeeded, succeeded]));
    const oldFailed = await w.event(daysAgo(31), [{ status: 'failed', attempts: 3 }]);
    const oldNoEndpoint = await w.event(daysAgo(60), []);
    const stillRetrying = await w.event(daysAgo(45), [succeeded, { status: 'pending', attempts: 4 }]);
    const recent = await w.event(daysAgo(29), [succeeded]);
    const before = {
      events: await count('webhook_events'),
      deliveries: await count('webhook_deliveries'),
      attempts: await count('webhook_attempts'),
    };

    const metrics = new Metrics({ defaultMetrics: false });
    const job = createRetentionJob({
      db: ctx.db,
      clock: ctx.clock,
      webhookRetentionDays: 30,
      deleted: retentionDeletedCounter(metrics.registry),
      batchSize: 3,
      pauseMs: 1,
    });
    const totals = await job.runOnce();

    // 5 events x 2 deliveries x 2 attempts, and the failed delivery's 3 attempts.
    expect(totals).toEqual({
      webhook_attempts: 23,
      webhook_deliveries: 11,
      webhook_events: 7,
      rate_limits: 0,
      sessions: 0,
      availability_changes: 0,
      ended_sessions: 0,
      invitations: 0,
    });
    expect(await remaining([...oldDelivered, oldFailed, oldNoEndpoint, stillRetrying, recent])).toEqual(
      [stillRetrying, recent].sort(),
    );
    expect(await count('webhook_events')).toBe(before.events - 7);
    expect(await count('webhook_deliveries')).toBe(before.deliveries - 11);
    expect(await count('webhook_attempts')).toBe(before.attempts - 23);
    const text = await metrics.registry.metrics();
    expect(text).toContain('retention_rows_deleted_total{table="webhook_attempts"} 23');
    expect(text).toContain('retention_rows_deleted_total{table="webhook_deliveries"} 11');
    expect(text).toContain('retention_rows_deleted_total{table="webhook_events"} 7');

    // Nothing left to delete: a second run deletes nothing.
    expect(await job.runOnce()).toEqual({
      webhook_attempts: 0,
      webhook_deliveries: 0,
      webhook_events: 0,
      rate_limits: 0,
      sessions: 0,
      availability_changes: 0,
      ended_sessions: 0,
      invitations: 0,
    });
  });

  it('deletes rate-limit windows that ended over an hour ago', async () => {
    const ms = NOW.epochMilliseconds;
    const key = () => `k-${randomBytes(4).toString('hex')}`;
    const old = [key(), key(), key()];
    const live = [key(), key()];
    await ctx.db
      .insertInto('rate_limits')
      .values([
        ...old.map((k, i) => ({ key: k, points: 1, expire: ms - 3_600_001 - i * 60_000 })),
        { key: live[0]!, points: 3, expire: ms - 600_000 },
        { key: live[1]!, points: 3, expire: ms + 30_000 },
      ])
      .execute();
    const job = createRetentionJob({
      db: ctx.db,
      clock: ctx.clock,
      webhookRetentionDays: 30,
      batchSize: 2,
      pauseMs: 1,
    });
    expect((await job.runOnce()).rate_limits).toBe(3);
    const left = await ctx.db
      .selectFrom('rate_limits')
      .select('key')
      .where('key', 'in', [...old, ...live])
      .execute();
    expect(left.map((r) => r.key).sort()).toEqual([...live].sort());
  });

  it('deletes availability changes a grace period after every transaction that could have written them ended', async () => {
    const changes = async () =>
      (await ctx.db.selectFrom('availability_changes').select('venue_id').execute()).map((r) => r.venue_id).sort();
    await ctx.db.deleteFrom('availability_changes').execute();
    const job = (changeLogGraceMs: number) =>
      createRetentionJob({ db: ctx.db, clock: ctx.clock, webhookRetentionDays: 30, changeLogGraceMs });
    const [before, between, after] = [randomUUID(), randomUUID(), randomUUID()];
    await ctx.db.insertInto('availability_changes').values({ venue_id: before }).execute();

    // A first run only notes where transactions stand; within the grace period the next run deletes nothing.
    const patient = job(60_000);
    await patient.runOnce();
    await ctx.db.insertInto('availability_changes').values({ venue_id: between }).execute();
    expect((await patient.runOnce()).availability_changes ?? 0).toBe(0);
    expect(await changes()).toEqual([before, between].sort());

    // Past it: what was written before the first run goes, what came after stays until a later run.
    const prompt = job(0);
    await prompt.runOnce();
    await ctx.db.insertInto('availability_changes').values({ venue_id: after }).execute();
    expect((await prompt.runOnce()).availability_changes).toBe(2);
    expect(await changes()).toEqual([after]);
  });

  it('deletes dashboard sessions past their absolute or idle expiry, and invitations past their 72 hours', async () => {
    const organisation = await makeOrganisation(ctx.db);
    const person = await makePerson(ctx.db, organisation.id);
    const minutesAgo = (minutes: number) => NOW.subtract({ minutes }).toString();
    const session = (lastSeen: string, absoluteExpires: string) => ({
      id: randomUUID(),
      person_id: person.id,
      token_hash: randomBytes(32).toString('hex'),
      csrf_token: randomBytes(16).toString('hex'),
      created_at: minutesAgo(60 * 11),
      last_seen_at: lastSeen,
      absolute_expires_at: absoluteExpires,
    });
    const live = session(minutesAgo(29), NOW.add({ hours: 1 }).toString());
    const idle = session(minutesAgo(31), NOW.add({ hours: 1 }).toString());
    const past = session(minutesAgo(1), minutesAgo(1));
    await ctx.db.insertInto('sessions').values([live, idle, past]).execute();
    const invitation = (expiresAt: string) => ({
      id: randomUUID(),
      organisation_id: organisation.id,
      email: `invitee-${randomBytes(4).toString('hex')}@example.com`,
      role: 'admin' as const,
      token_hash: randomBytes(32).toString('hex'),
      created_at: minutesAgo(60 * 80),
      expires_at: expiresAt,
    });
    const open = invitation(NOW.add({ hours: 1 }).toString());
    const lapsed = invitation(minutesAgo(1));
    await ctx.db.insertInto('invitations').values([open, lapsed]).execute();

    const job = createRetentionJob({ db: ctx.db, clock: ctx.clock, webhookRetentionDays: 30, pauseMs: 1 });
    const totals = await job.runOnce();
    expect({ sessions: totals.sessions, invitations: totals.invitations }).toEqual({ sessions: 2, invitations: 1 });
    const sessions = await ctx.db.selectFrom('sessions').select('id').where('person_id', '=', person.id).execute();
    expect(sessions.map((r) => r.id)).toEqual([live.id]);
    const invitations = await ctx.db
      .selectFrom('invitations')
      .select('id')
      .where('organisation_id', '=', organisation.id)
      .execute();
    expect(invitations.map((r) => r.id)).toEqual([open.id]);
  });

  // Several processes share a PostgreSQL database; the embedded one has a single process.
  it.runIf(testDbKind === 'postgres')('deletes nothing while another process holds the retention lock', async () => {
    const w = await world();
    const old = await w.event(daysAgo(90), [{ status: 'succeeded', attempts: 1 }]);
    const job = createRetentionJob({ db: ctx.db, clock: ctx.clock, webhookRetentionDays: 30 });
    let release!: () => void;
    let locked!: () => void;
    const held = new Promise<void>((resolve) => (locked = resolve));
    const other = ctx.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${advisoryLockKey('retention')})`.execute(trx);
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await held;
    expect(await job.runOnce()).toEqual({});
    expect(await remaining([old])).toEqual([old]);
    release();
    await other;
    expect((await job.runOnce()).webhook_events).toBeGreaterThanOrEqual(1);
    expect(await remaining([old])).toEqual([]);
  });

  it('stops between two batches when the server stops', async () => {
    const w = await world();
    const events: string[] = [];
    for (let i = 0; i < 4; i++) events.push(await w.event(daysAgo(70), [{ status: 'succeeded', attempts: 1 }]));
    const attemptsLeft = async () =>
      (
        await ctx.db
          .selectFrom('webhook_attempts')
          .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
          .select('webhook_attempts.id')
          .where('webhook_deliveries.event_id', 'in', events)
          .execute()
      ).length;
    const job = createRetentionJob({
      db: ctx.db,
      clock: ctx.clock,
      webhookRetentionDays: 30,
      batchSize: 1,
      pauseMs: 600_000,
      intervalMs: 1,
    });
    job.start();
    // The run starts at once (intervalMs 1) and, after its first batch of one row, pauses for ten minutes.
    const deadline = Date.now() + 20_000;
    while ((await attemptsLeft()) === 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await job.stop();
    // stop() ended the pause without another batch: one attempt gone, the events all kept.
    expect(await attemptsLeft()).toBe(3);
    expect(await remaining(events)).toEqual([...events].sort());
  });
});
