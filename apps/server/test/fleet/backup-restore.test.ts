import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyVault } from '../../src/auth/api-key.js';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { type ChildServer, eventually, startChildServer } from '../faults/support/child-server.js';
import { isReady, postBooking } from '../faults/support/http.js';
import { type BookableVenue, makeBookableVenue } from '../support/booking-fixture.js';
import { type BackRest, pgBackRest, pgBackRestUnavailableReason } from '../support/pgbackrest.js';
import { type Cluster, queryOne, startPrimary } from '../support/postgres-cluster.js';
import { testDbKind } from '../support/test-db.js';

const skipReason =
  testDbKind !== 'postgres'
    ? 'pgBackRest backs up a PostgreSQL server (DATABASE_URL set)'
    : pgBackRestUnavailableReason();
if (skipReason) console.warn(`backup and restore test (pgBackRest, WAL archiving) skipped: ${skipReason}`);

const DATABASE = 'spa_backups';

interface Acknowledged {
  id: string;
  /** Wall-clock milliseconds (the database's clock is this machine's). */
  sentAt: number;
  answeredAt: number;
}

/**
 * The deploy guide's backups on real parts: a primary archiving its WAL with pgBackRest, a full backup taken under
 * a create load, then two restores into new clusters: to a point in time after the backup, and to the end of the
 * archive. The compiled server starts on the first; each holds every booking acknowledged before its point.
 */
describe.skipIf(skipReason)(
  'pgBackRest: a backup under load, restored to a point in time and to the latest WAL',
  () => {
    let primary: Cluster | undefined;
    let backRest: (BackRest & { remove(): void }) | undefined;
    const restored: Cluster[] = [];
    const servers: ChildServer[] = [];
    let fixture: BookableVenue;
    let keyEncryptionKey: Buffer;
    const acknowledged: Acknowledged[] = [];
    let backupDoneAt = 0;
    let targetTime = '';
    let targetAt = 0;

    beforeAll(async () => {
      const repo = pgBackRest();
      backRest = repo;
      primary = await startPrimary(repo.archiveSettings);
      await repo.attach(primary);
      await queryOne(primary.url('postgres'), `create database ${DATABASE}`);
      keyEncryptionKey = randomBytes(32);
      const seeding = await connect({ databaseUrl: primary.url(DATABASE), poolSize: 2 });
      try {
        await migrateToLatest(seeding.db);
        fixture = await makeBookableVenue(seeding.db, new KeyVault(keyEncryptionKey), { rooms: 2, therapists: 2 });
      } finally {
        await seeding.close();
      }
      const server = await startChildServer({
        DATABASE_URL: primary.url(DATABASE),
        KEY_ENCRYPTION_KEY: keyEncryptionKey.toString('hex'),
      });
      servers.push(server);
      await eventually(() => isReady(server.base), 60_000);

      let slot = 0;
      let loading = true;
      const load = (async () => {
        while (loading) {
          const sentAt = Date.now();
          const res = await postBooking(server.base, fixture, slot++);
          expect(res.status).toBe(201);
          const { id } = ((await res.json()) as { data: { id: string } }).data;
          acknowledged.push({ id, sentAt, answeredAt: Date.now() });
        }
      })();
      const count = (after: number) => acknowledged.filter((a) => a.sentAt > after).length;
      await eventually(() => acknowledged.length >= 5, 30_000);
      await repo.run('backup', '--type=full');
      backupDoneAt = Date.now();
      await eventually(() => count(backupDoneAt) >= 5, 30_000);
      // The point in time: the database's clock, between bookings made after the backup. pgBackRest keeps a
      // backup's stop time in whole seconds, so the target is at least a second past the backup's end.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      ({ now: targetTime } = await queryOne<{ now: string }>(primary.url('postgres'), 'select now()::text as now'));
      targetAt = Date.now();
      await eventually(() => count(targetAt) >= 5, 30_000);
      loading = false;
      await load;
      server.kill();
      // A clean stop archives the last WAL segment: the archive holds every commit.
      await primary.stop();
    }, 180_000);

    afterAll(async () => {
      for (const server of servers) server.kill();
      for (const cluster of restored) await cluster.remove();
      await primary?.remove();
      backRest?.remove();
    });

    const bookingsIn = async (cluster: Cluster, ids: string[]) =>
      (
        await queryOne<{ count: number }>(
          cluster.url(DATABASE),
          `select count(*)::int as count from bookings where id = any('{${ids.join(',')}}'::uuid[])`,
        )
      ).count;

    it('restores to a point in time after the backup; the server serves every booking acknowledged before it, none sent after', async () => {
      const cluster = await backRest!.restoreInto('--type=time', `--target=${targetTime}`, '--target-action=promote');
      restored.push(cluster);
      await eventually(
        async () =>
          !(await queryOne<{ standby: boolean }>(cluster.url('postgres'), 'select pg_is_in_recovery() as standby'))
            .standby,
        60_000,
      );
      const server = await startChildServer({
        DATABASE_URL: cluster.url(DATABASE),
        KEY_ENCRYPTION_KEY: keyEncryptionKey.toString('hex'),
      });
      servers.push(server);
      await eventually(() => isReady(server.base), 60_000);
      const before = acknowledged.filter((a) => a.answeredAt < targetAt - 50);
      const after = acknowledged.filter((a) => a.sentAt > targetAt + 50);
      expect(before.filter((a) => a.sentAt > backupDoneAt).length).toBeGreaterThan(0);
      for (const { id } of before) {
        const res = await fetch(`${server.base}/v1/bookings/${id}`, {
          headers: { Authorization: `Bearer ${fixture.key}` },
        });
        expect(res.status).toBe(200);
      }
      expect(
        await bookingsIn(
          cluster,
          after.map((a) => a.id),
        ),
      ).toBe(0);
      // The restored database takes new bookings.
      expect((await postBooking(server.base, fixture, 8 * 500)).status).toBe(201);
    }, 120_000);

    it('restores the latest backup with every archived WAL segment: every acknowledged booking is there', async () => {
      const cluster = await backRest!.restoreInto('--type=default');
      restored.push(cluster);
      await eventually(
        async () =>
          !(await queryOne<{ standby: boolean }>(cluster.url('postgres'), 'select pg_is_in_recovery() as standby'))
            .standby,
        60_000,
      );
      expect(
        await bookingsIn(
          cluster,
          acknowledged.map((a) => a.id),
        ),
      ).toBe(acknowledged.length);
      const info = await backRest!.run('info', '--output=json');
      const [stanza] = JSON.parse(info) as { backup: { type: string }[] }[];
      expect(stanza!.backup.map((b) => b.type)).toEqual(['full']);
    }, 120_000);
  },
);
