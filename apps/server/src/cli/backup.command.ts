import type { PGlite } from '@electric-sql/pglite';
import type { Command } from 'commander';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { lockDataDir, lockFileOf } from '../db/data-dir-lock.js';
import { openPglite } from '../db/connect.js';
import { makeDataDirPrivate } from '../db/private-data-dir.js';
import { OperatorError } from '../errors/operator-error.js';
import * as tar from 'tar';
import { type CommandHost, print } from './command-host.js';

/**
 * `spa backup <file>` and `spa restore <file>`: the embedded database's own backups (PostgreSQL has pgBackRest,
 * docs/guides/deploying.md). A backup is PGlite's data directory as a gzipped tar, taken after a checkpoint while
 * no statement runs (the running server does it when it has DATA_DIR open: it holds the database), so the server
 * keeps answering.
 * A restore replaces DATA_DIR with a backup; it runs only while no server has DATA_DIR open, and keeps what it
 * replaced beside it.
 */
export function registerBackup(program: Command, host: CommandHost): void {
  program
    .command('backup')
    .description('copy the embedded database (DATA_DIR) into a file, while the server runs or not')
    .argument('<file>', 'the backup file to write (a .tar.gz; an existing file is not overwritten)')
    .action(async (file: string) => {
      const target = resolve(host.cwd, file);
      if (existsSync(target)) throw new OperatorError(`${target} exists already; choose a new file name`);
      await host.withContext(async ({ pglite, dataDir }) => {
        if (!pglite || !dataDir)
          throw new OperatorError(
            'spa backup copies the embedded database; with DATABASE_URL, back up PostgreSQL with pgBackRest (docs/guides/deploying.md)',
          );
        // Written beside the target and renamed: a half-written file never carries the backup's name. 0600: it
        // holds everything the database holds.
        const partial = join(dirname(target), `.${basename(target)}.partial`);
        try {
          await backupPglite(pglite, dataDir, partial);
          renameSync(partial, target);
        } finally {
          rmSync(partial, { force: true });
        }
        print(host, `Backed up the embedded database to ${target} (${statSync(target).size} bytes)`);
      });
    });

  program
    .command('restore')
    .description('replace the embedded database (DATA_DIR) with a backup; the server must be stopped')
    .argument('<file>', 'a backup file written by spa backup')
    .action(async (file: string) => {
      const dataDir = host.embeddedDataDir;
      if (!dataDir)
        throw new OperatorError(
          'spa restore replaces the embedded database; with DATABASE_URL, restore PostgreSQL with pgBackRest (docs/guides/deploying.md)',
        );
      const source = resolve(host.cwd, file);
      if (!existsSync(source)) throw new OperatorError(`${source} does not exist`);
      const kept = await restorePglite(dataDir, source);
      print(host, `Restored ${dataDir} from ${source}`);
      if (kept) print(host, `The database it replaced is kept in ${kept}`);
    });
}

/** What a data directory holds that is no part of the database: the running server's lock and socket. */
const NOT_DATA = new Set(['embedded.pid', 'operator.sock']);
const isData = (path: string) => !NOT_DATA.has(path.replace(/^\.\//, '')) && !path.includes('embedded.pid.takeover-');

/**
 * A consistent copy of an open PGlite database into `file` (a gzipped tar): a checkpoint, then its files while no
 * statement runs. PGlite writes through to the files, so they are what a crash at that moment would leave, which
 * PostgreSQL opens as after a crash (its WAL replayed); the checkpoint leaves little to replay. PGlite's own
 * dumpDataDir cannot be used: it stops at the operator socket in DATA_DIR.
 */
export async function backupPglite(pglite: PGlite, dataDir: string, file: string): Promise<void> {
  await pglite.exec('checkpoint');
  await pglite.runExclusive(() =>
    tar.create({ gzip: true, file, cwd: dataDir, portable: true, mode: 0o600, filter: isData }, ['.']),
  );
}

/**
 * Replaces dataDir's database with a backup, under dataDir's lock (refused while a server or another command has
 * it open). The backup is unpacked and opened in a folder beside dataDir first, so a broken file changes nothing;
 * the files it replaces move to `<DATA_DIR>.before-restore-<time>`. Entries are moved one by one, not the folder,
 * because DATA_DIR is often a mounted volume. Answers where the replaced files are, if there were any.
 */
export async function restorePglite(dataDir: string, file: string): Promise<string | undefined> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const unlock = lockDataDir(dataDir);
  const staging = join(dirname(dataDir), `.${basename(dataDir)}.restoring-${process.pid}`);
  try {
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { mode: 0o700 });
    try {
      await tar.extract({ file, cwd: staging, strict: true, filter: isData });
      const pglite = await openPglite({ dataDir: staging });
      try {
        await pglite.query('select count(*) from kysely_migration');
      } finally {
        await pglite.close();
      }
    } catch (error) {
      throw new OperatorError(
        `The file is not a backup of this database (spa backup writes one): ${(error as Error).message}`,
        { cause: error },
      );
    }
    const current = readdirSync(dataDir).filter((entry) => join(dataDir, entry) !== lockFileOf(dataDir));
    let kept: string | undefined;
    if (current.length > 0) {
      kept = `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      mkdirSync(kept, { mode: 0o700 });
      for (const entry of current) move(join(dataDir, entry), join(kept, entry));
    }
    for (const entry of readdirSync(staging)) move(join(staging, entry), join(dataDir, entry));
    makeDataDirPrivate(dataDir);
    return kept;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    unlock();
  }
}

/** A rename, or a copy and removal across file systems (a DATA_DIR that is a volume of its own). */
function move(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    cpSync(from, to, { recursive: true, preserveTimestamps: true });
    rmSync(from, { recursive: true, force: true });
  }
}
