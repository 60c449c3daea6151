import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSpa } from '../../src/cli/run-spa.js';
import { type ChildServer, eventually, startChildServer } from '../faults/support/child-server.js';
import { isReady, postBooking } from '../faults/support/http.js';
import { type SeededDatabase, seedDatabase } from '../faults/support/seeded-database.js';
import { compiledArgs } from '../support/compiled.js';
import { testDbKind } from '../support/test-db.js';

const run = promisify(execFile);

/** `pnpm spa …` as a separate process, as an operator runs it beside the server. */
async function spa(env: Record<string, string>, ...argv: string[]) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!('DATABASE_URL' in env)) delete childEnv.DATABASE_URL;
  try {
    const { stdout, stderr } = await run(process.execPath, compiledArgs('spa', ...argv), { env: childEnv });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe.skipIf(testDbKind !== 'postgres')('spa backup and restore on PostgreSQL', () => {
  it('refuse, naming pgBackRest, since a PostgreSQL server is backed up by its own tools', async () => {
    const output = { stdout: '', stderr: '' };
    const io = { stdout: (t: string) => (output.stdout += t), stderr: (t: string) => (output.stderr += t) };
    const file = join(tmpdir(), `spa-backup-${process.pid}.tar.gz`);
    expect(await runSpa(['backup', file], process.env, io)).toBe(1);
    expect(output.stderr).toMatch(/^spa backup copies the embedded database; .*pgBackRest/);
    expect(await runSpa(['restore', file], process.env, io)).toBe(1);
    expect(output.stderr).toMatch(/spa restore replaces the embedded database; .*pgBackRest/);
    expect(existsSync(file)).toBe(false);
  });
});

/**
 * The embedded database's backup while the server runs and takes bookings, and its restore: refused while the
 * server has DATA_DIR open, then the server started on the restored files holds every booking acknowledged before
 * the backup began.
 */
describe.skipIf(testDbKind !== 'pglite')('spa backup and restore of the embedded database', () => {
  let seeded: SeededDatabase;
  let server: ChildServer | undefined;
  let dir: string;

  beforeAll(async () => {
    seeded = await seedDatabase({ rooms: 2 });
    dir = mkdtempSync(join(tmpdir(), 'spa-backups-'));
  });

  afterAll(async () => {
    server?.kill();
    await seeded.drop();
    for (const entry of readdirSync(tmpdir()).filter((e) => e.startsWith(`${seeded.env.DATA_DIR!.split('/').pop()}.`)))
      rmSync(join(tmpdir(), entry), { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (base: string, id: string) =>
    fetch(`${base}/v1/bookings/${id}`, { headers: { Authorization: `Bearer ${seeded.fixture.key}` } });

  it('copies a running server’s database under load, and a restore brings back every booking acknowledged before it', async () => {
    server = await startChildServer(seeded.env);
    await eventually(() => isReady(server!.base), 60_000);
    const acknowledged: { id: string; sentAt: number; answeredAt: number }[] = [];
    let slot = 0;
    let loading = true;
    const load = (async () => {
      while (loading) {
        const sentAt = performance.now();
        const res = await postBooking(server.base, seeded.fixture, slot++).catch(() => undefined);
        if (!res) return; // the server was stopped by a failed assertion
        if (res.status === 201) {
          const { id } = ((await res.json()) as { data: { id: string } }).data;
          acknowledged.push({ id, sentAt, answeredAt: performance.now() });
        } else expect(res.status).toBe(201);
      }
    })();
    await eventually(() => acknowledged.length >= 5, 30_000);
    const file = join(dir, 'spa.tar.gz');
    const backupStarted = performance.now();
    const backup = await spa(seeded.env, 'backup', file);
    expect(backup).toMatchObject({ code: 0, stderr: '' });
    expect(backup.stdout).toMatch(/^Backed up the embedded database to .*spa\.tar\.gz \(\d+ bytes\)\n$/);
    const backupDone = performance.now();
    // Bookings sent once the backup is written: the restore must not have them.
    await eventually(() => acknowledged.filter((a) => a.sentAt > backupDone).length >= 3, 30_000);
    loading = false;
    await load;
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const before = acknowledged.filter((a) => a.answeredAt < backupStarted);
    const after = acknowledged.filter((a) => a.sentAt > backupDone);

    // A second backup never overwrites the first.
    expect(await spa(seeded.env, 'backup', file)).toMatchObject({
      code: 1,
      stderr: `${file} exists already; choose a new file name\n`,
    });

    // The server has DATA_DIR open: the restore is refused, and nothing changes.
    const refused = await spa(seeded.env, 'restore', file);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`is in use by process ${server.child.pid}`);
    expect((await get(server.base, acknowledged.at(-1)!.id)).status).toBe(200);

    server.kill();
    await server.exited;
    server = undefined;

    // A file that is not a backup changes nothing.
    const junk = join(dir, 'junk.tar.gz');
    writeFileSync(junk, 'not a backup');
    const rejected = await spa(seeded.env, 'restore', junk);
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toMatch(/^The file is not a backup of this database/);

    const restored = await spa(seeded.env, 'restore', file);
    expect(restored).toMatchObject({ code: 0, stderr: '' });
    const [line, keptLine] = restored.stdout.split('\n');
    expect(line).toBe(`Restored ${seeded.env.DATA_DIR} from ${file}`);
    const kept = /^The database it replaced is kept in (.+)$/.exec(keptLine!)![1]!;
    expect(existsSync(join(kept, 'PG_VERSION'))).toBe(true);

    server = await startChildServer(seeded.env);
    await eventually(() => isReady(server!.base), 60_000);
    // Everything acknowledged before the backup began is there; what came well after it is not.
    for (const { id } of before) expect((await get(server.base, id)).status).toBe(200);
    expect(before.length).toBeGreaterThanOrEqual(5);
    for (const { id } of after) expect((await get(server.base, id)).status).toBe(404);
  }, 180_000);
});
