import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testDbKind } from '../support/test-db.js';
import { type ChildServer, eventually, startChildServer } from './support/child-server.js';
import { isReady, postBooking } from './support/http.js';
import { type SeededDatabase, seedDatabase } from './support/seeded-database.js';

// The data directory of the embedded database; the PostgreSQL run has nothing more to show.
if (testDbKind !== 'pglite')
  console.warn('DATA_DIR modes are a matter of the embedded database; skipped on PostgreSQL');

/** Every path under dir (itself included) that a group or other user may read, write or enter, with its mode. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) return;
    if (stats.mode & 0o077) found.push(`${path} ${(stats.mode & 0o777).toString(8)}`);
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return found;
}

/** Whether this machine lets the tests act as another local user (root with setpriv). */
const canRunAsNobody = (() => {
  try {
    return (
      process.getuid?.() === 0 && execFileSync('setpriv', ['--reuid=65534', 'id', '-u']).toString().trim() === '65534'
    );
  } catch {
    return false;
  }
})();

/** What `nobody` can read of a file: its text, or the error it gets. */
function readAsNobody(path: string): string {
  try {
    return execFileSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'cat', path], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }).toString();
  } catch (error) {
    return `refused: ${(error as { stderr: Buffer }).stderr.toString().trim()}`;
  }
}

/** Runs start with the process umask set to mask (children inherit it), as a container that sets none does. */
async function withUmask<T>(mask: number, start: () => Promise<T>): Promise<T> {
  const previous = process.umask(mask);
  try {
    return await start();
  } finally {
    process.umask(previous);
  }
}

describe.skipIf(testDbKind !== 'pglite')('the embedded database keeps its files private', () => {
  let server: ChildServer | undefined;
  let seeded: SeededDatabase | undefined;
  let parent: string | undefined;
  afterEach(async () => {
    server?.kill();
    await server?.exited;
    await seeded?.drop();
    if (parent) rmSync(parent, { recursive: true, force: true });
    server = seeded = parent = undefined;
  });

  it('creates DATA_DIR 0700 with files 0600 even under umask 000', { timeout: 120_000 }, async () => {
    parent = mkdtempSync(join(tmpdir(), 'spa-modes-'));
    chmodSync(parent, 0o755);
    const dataDir = join(parent, 'data');
    server = await withUmask(0, () => startChildServer({ DATA_DIR: dataDir }));
    await eventually(() => isReady(server!.base), 90_000);
    expect(openToOthers(dataDir)).toEqual([]);
    if (canRunAsNobody) expect(readAsNobody(join(dataDir, 'PG_VERSION'))).toMatch(/^refused: .*Permission denied/);
  });

  it(
    'makes an existing DATA_DIR private at start, with a warning, and writes only private files after',
    { timeout: 120_000 },
    async () => {
      seeded = await seedDatabase({ rooms: 1 });
      const dataDir = seeded.env.DATA_DIR!;
      writeFileSync(join(dataDir, 'notes.txt'), 'left by an operator');
      // As an earlier version left it (the campaign found 968 files 0666 in a 0755 directory).
      const loosen = (path: string) => {
        const directory = lstatSync(path).isDirectory();
        chmodSync(path, directory ? 0o777 : 0o666);
        if (directory) for (const name of readdirSync(path)) loosen(join(path, name));
      };
      loosen(dataDir);
      const before = openToOthers(dataDir);
      expect(before.length).toBeGreaterThan(100);
      if (canRunAsNobody) expect(readAsNobody(join(dataDir, 'PG_VERSION'))).toMatch(/^\d+/);

      server = await withUmask(0, () => startChildServer(seeded!.env));
      await eventually(() => isReady(server!.base), 60_000);
      expect(server.logs).toContainEqual(
        expect.objectContaining({
          level: 40,
          data_dir: dataDir,
          made_private: before.length,
          msg: 'DATA_DIR was open to other local users; made it private (directories 0700, files 0600)',
        }),
      );
      // Writes after the start (the WAL of a booking) are private too.
      expect((await postBooking(server.base, seeded.fixture, 0)).status).toBe(201);
      expect(openToOthers(dataDir)).toEqual([]);
      if (canRunAsNobody) expect(readAsNobody(join(dataDir, 'PG_VERSION'))).toMatch(/^refused: .*Permission denied/);
    },
  );
});
