import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHosts } from '../../src/db/multi-host.js';
import { eventually } from '../faults/support/child-server.js';
import { type DrillResult, FailoverDrill } from '../support/failover-drill.js';
import { patroniUnavailableReason } from '../support/patroni.js';
import { queryOne } from '../support/postgres-cluster.js';
import { testDbKind } from '../support/test-db.js';

describe('a multi-host DATABASE_URL', () => {
  it('reads every host, the leader requirement, and leaves pg one host to parse', () => {
    expect(
      parseHosts(
        'postgres://app:secret@10.0.0.1:5433,db-b,[::1]:6000/spa?sslmode=disable&target_session_attrs=read-write',
      ),
    ).toEqual({
      hosts: [
        { host: '10.0.0.1', port: 5433 },
        { host: 'db-b', port: 5432 },
        { host: '::1', port: 6000 },
      ],
      readWrite: true,
      singleHostUrl: 'postgres://app:secret@10.0.0.1:5433/spa?sslmode=disable',
    });
    expect(parseHosts('postgres://postgres@127.0.0.1:5432/test')).toMatchObject({ readWrite: false });
    expect(parseHosts('not-a-url')).toBeUndefined();
  });
});

const skipReason =
  testDbKind !== 'postgres' ? 'failover needs the PostgreSQL project (DATABASE_URL set)' : patroniUnavailableReason();
if (skipReason) console.warn(`failover test (Patroni, etcd, two PostgreSQL nodes) skipped: ${skipReason}`);

/**
 * The loss of the primary: the compiled server on `postgres://…@node1,node2/spa?target_session_attrs=read-write`
 * in front of a Patroni pair in synchronous mode, a steady create load, and kill -9 of the leader's PostgreSQL.
 */
describe.skipIf(skipReason)('kill -9 of the leader under a create load (Patroni, synchronous standby)', () => {
  const drill = new FailoverDrill();
  let result: DrillResult;

  beforeAll(async () => {
    await drill.start();
    result = await drill.run();
    console.info(
      `failover: ${result.answers.length} creates, ${result.acknowledged.length} acknowledged, all ${result.onNewLeader} on the new leader; ` +
        `promotion ${Math.round(result.promotionMs)} ms, writes back ${Math.round(result.writeOutageMs)} ms after the kill`,
    );
  }, 150_000);

  afterAll(() => drill.stop(), 30_000);

  it('loses no acknowledged booking, resumes writes within 15 s, and answers 503 with Retry-After meanwhile', () => {
    const { answers, acknowledged } = result;
    const statuses = new Map<number, number>();
    for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    // Creates were acknowledged before the kill and after the promotion.
    expect(answers.some((a) => a.status === 201 && a.answeredAt < 0)).toBe(true);
    expect(answers.some((a) => a.status === 201 && a.sentAt > 0)).toBe(true);
    expect(result.newLeader.name).not.toBe(result.oldLeader.name);
    // Every booking answered 201 is on the new leader: the synchronous standby had each commit before its answer.
    expect(result.onNewLeader).toBe(acknowledged.length);
    expect(result.writeOutageMs).toBeLessThan(15_000);
    // Nothing but created or "come back later": no 500, no request left without an answer.
    expect([...statuses.keys()].filter((s) => s !== 201 && s !== 503)).toEqual([]);
    for (const a of answers.filter((a) => a.status === 503)) expect(Number(a.retryAfter)).toBeGreaterThan(0);
    const errored = drill.server.logs.filter((l) => l.msg === 'request errored');
    expect(errored.filter((l) => (l.res as { statusCode?: number } | undefined)?.statusCode !== 503)).toEqual([]);
  });

  it('delivers every acknowledged booking’s webhook, from the new leader', async () => {
    const delivered = () =>
      new Set(
        drill.receiver.received
          .map((r) => JSON.parse(r.body) as { type: string; data: { booking: { id: string } } })
          .filter((e) => e.type === 'booking.created')
          .map((e) => e.data.booking.id),
      );
    await eventually(() => result.acknowledged.every((id) => delivered().has(id)), 30_000);
  });

  it('listens for schedule changes on the new leader, and the availability cache follows a new booking', async () => {
    // The cache went off when the old leader's listening connection died, and on again on the new leader.
    await eventually(() => drill.logged('availability cache on', 1), 15_000);
    const { count } = await queryOne<{ count: number }>(
      drill.pair.nodeUrl(result.newLeader, 'spa_failover'),
      `select count(*)::int as count from pg_stat_activity where application_name = 'spa-notifications'`,
    );
    expect(count).toBeGreaterThan(0);
    // A slot far from the load's: free, listed (and so cached), booked, and no longer listed.
    const n = 8 * 300;
    expect(await drill.listed(n)).toBe(true);
    expect(await drill.listed(n)).toBe(true);
    const booked = await drill.book(n);
    expect(booked).toBe(201);
    expect(await drill.listed(n)).toBe(false);
  });
});
