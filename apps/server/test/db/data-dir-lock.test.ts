import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKind } from '../support/test-db.js';
import { DataDirBusyError, lockDataDir, lockFileOf, lockOwner } from '../../src/db/data-dir-lock.js';

const run = promisify(execFile);
const lockModule = fileURLToPath(new URL('../../src/db/data-dir-lock.ts', import.meta.url));

// No database is involved: it runs once, in the PGlite project.
describe.skipIf(testDbKind !== 'pglite')('the embedded DATA_DIR lock', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'spa-lock-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** A pid no process has any more: one that just exited. */
  const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid;

  it('refuses a second owner while the first lives, naming it, and frees the directory on release', () => {
    const data = join(dir, 'live');
    mkdirSync(data);
    const unlock = lockDataDir(data);
    expect(lockOwner(data)).toBe(process.pid);
    expect(() => lockDataDir(data)).toThrow(DataDirBusyError);
    expect(() => lockDataDir(data)).toThrow(`in use by process ${process.pid}`);
    unlock();
    expect(lockOwner(data)).toBeUndefined();
    lockDataDir(data)();
  });

  it('takes over a pid file left by a dead process, or an unreadable one', () => {
    for (const [name, content] of [
      ['dead', String(deadPid())],
      ['garbage', 'not a pid'],
    ]) {
      const data = join(dir, name!);
      mkdirSync(data);
      writeFileSync(lockFileOf(data), content!);
      expect(lockOwner(data)).toBeUndefined();
      const unlock = lockDataDir(data);
      expect(readFileSync(lockFileOf(data), 'utf8')).toBe(String(process.pid));
      unlock();
    }
  });

  it('lets exactly one of several processes started together take over a stale lock', async () => {
    const trials = 150;
    const dead = deadPid();
    const dirs = Array.from({ length: trials }, (_, i) => {
      const data = join(dir, `race-${i}`);
      mkdirSync(data);
      writeFileSync(lockFileOf(data), String(dead));
      return data;
    });
    // Each contender walks the same directories in the same order from the same moment, keeping what it wins,
    // and lives until every contender has walked them all: a lock whose holder has exited is stale, and rightly
    // taken over by a slower contender.
    const go = join(dir, 'go');
    const release = join(dir, 'release');
    const contender = `
      import { existsSync, writeFileSync } from 'node:fs';
      import { lockDataDir } from ${JSON.stringify(lockModule)};
      const [ready, go, release, ...dirs] = process.argv.slice(1);
      writeFileSync(ready, '');
      while (!existsSync(go));
      const won = dirs.map((d) => { try { lockDataDir(d); return 1; } catch { return 0; } });
      writeFileSync(ready + '.won', won.join(''));
      while (!existsSync(release)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);`;
    const contenders = [0, 1, 2, 3].map((i) =>
      run(process.execPath, [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        contender,
        join(dir, `ready-${i}`),
        go,
        release,
        ...dirs,
      ]),
    );
    while (![0, 1, 2, 3].every((i) => existsSync(join(dir, `ready-${i}`)))) await setTimeout(20);
    writeFileSync(go, '');
    const won = (i: number) => join(dir, `ready-${i}.won`);
    while (![0, 1, 2, 3].every((i) => existsSync(won(i)))) await setTimeout(20);
    writeFileSync(release, '');
    await Promise.all(contenders);
    const results = [0, 1, 2, 3].map((i) => readFileSync(won(i), 'utf8'));
    const winners = dirs.map((_, i) => results.filter((r) => r[i] === '1').length);
    expect(winners.filter((n) => n !== 1)).toEqual([]);
  });
});
