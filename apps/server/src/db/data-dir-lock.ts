import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite keeps no lock of its own, and two processes on one data directory corrupt it. A pid file makes the
 * second one (a `pnpm spa` beside a running `pnpm start`) stop with a clear message instead.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'embedded.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(file, 'utf8'));
      if (isAlive(owner)) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by process ${owner} (a running pnpm start?). ` +
            'Stop it first, or use a PostgreSQL server with DATABASE_URL.',
          { cause: error },
        );
      }
      rmSync(file, { force: true }); // left by a process that died: take it over
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}`);
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
