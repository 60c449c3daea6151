import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

/**
 * The embedded database's files hold customers' names, emails and phone numbers (the WAL too) and its settings
 * (postgresql.conf): only the user that runs the server may read or change them. Everything this process creates
 * from here on is private (umask 077, whatever the container set), DATA_DIR is created 0700, and an existing one
 * that others could enter is made private, each directory 0700 and each file 0600. Returns how many paths were
 * tightened, for a warning.
 */
export function makeDataDirPrivate(dataDir: string): number {
  // The umask is the process's; a worker thread cannot set it (and never opens the embedded database).
  if (isMainThread) process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let tightened = 0;
  const visit = (path: string) => {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) return; // its target is not ours to change; PGlite makes none
    if (stats.mode & OTHERS) {
      chmodSync(path, stats.isDirectory() ? 0o700 : 0o600);
      tightened++;
    }
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dataDir);
  return tightened;
}

/** Permission bits no one but the owner gets: group and other. */
export const OTHERS = 0o077;
