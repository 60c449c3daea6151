import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The embedded database is in use by a live process (a running `pnpm start`, or another CLI command). */
export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${owner}. ` +
        'Stop it first, or use a PostgreSQL server with DATABASE_URL.',
    );
  }
}

/** The pid file of the process that owns the embedded database of dataDir. */
export const lockFileOf = (dataDir: string) => join(dataDir, 'embedded.pid');

/**
 * PGlite keeps no lock of its own, and two processes on one data directory corrupt it. A pid file, created
 * atomically, makes the second one stop with a clear message. A pid file left by a dead process is taken
 * over through a claim file per dead pid (created the same way): of several processes started together after a
 * crash, exactly one wins the claim, and it removes the stale file only while it still names that dead pid.
 */
export function lockDataDir(dataDir: string, pid = process.pid): () => void {
  const file = lockFileOf(dataDir);
  for (let attempt = 0; attempt < 50; attempt++) {
    if (createExclusive(file, pid)) return () => releaseIfOwned(file, pid);
    const owner = readPid(file);
    if (owner === undefined) continue; // removed meanwhile: try again
    if (isAlive(owner)) throw new DataDirBusyError(dataDir, owner);
    takeOver(file, owner, pid);
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}`);
}

/** The pid holding the lock of dataDir when that process is alive, else undefined. */
export function lockOwner(dataDir: string): number | undefined {
  const owner = readPid(lockFileOf(dataDir));
  return owner !== undefined && isAlive(owner) ? owner : undefined;
}

function takeOver(file: string, dead: number, pid: number): void {
  const claim = `${file}.takeover-${dead}`;
  if (!createExclusive(claim, pid)) {
    // Another process is taking over; a claim left by one that died in those microseconds is cleared.
    const claimant = readPid(claim);
    if (claimant !== undefined && !isAlive(claimant)) rmSync(claim, { force: true });
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5); // let the claimant finish
    return;
  }
  try {
    if (readPid(file) === dead) rmSync(file, { force: true });
  } finally {
    rmSync(claim, { force: true });
  }
}

/**
 * Creates file holding pid, or returns false when it exists. Written aside first and hard-linked into place:
 * link() is atomic among processes and fails when the name exists, and the file is never seen empty.
 */
function createExclusive(file: string, pid: number): boolean {
  const staged = `${file}.${pid}.${process.hrtime.bigint()}`;
  writeFileSync(staged, String(pid));
  try {
    linkSync(staged, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(staged, { force: true });
  }
}

function releaseIfOwned(file: string, pid: number): void {
  if (readPid(file) === pid) rmSync(file, { force: true });
}

/** The pid in file; undefined when the file is gone. */
function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : 0; // 0: unreadable, never a live process
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
