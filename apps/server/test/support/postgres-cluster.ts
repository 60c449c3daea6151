import { execFile, execFileSync } from 'node:child_process';
import { accessSync, chownSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from './free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * Real PostgreSQL clusters of a test's own: a primary made by initdb and a streaming replica made by pg_basebackup
 * of it, each on a free port with its own socket directory, stopped and removed afterwards. A primary of our own
 * rather than a replica of the shared server: nothing in the shared server's configuration changes (its
 * pg_hba.conf allows no replication connections), the base backup copies a few megabytes whatever the other
 * sessions keep there, and the replica replays only the test's own writes, so its lag is the test's to control.
 */
const BIN = process.env.POSTGRES_BIN_DIR ?? '/usr/lib/postgresql/15/bin';
const run = promisify(execFile);

/** PostgreSQL refuses to run as root: as root the binaries run as the `postgres` user (runuser). */
const asRoot = process.getuid?.() === 0;
const command = (file: string, args: string[]): [string, string[]] =>
  asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];

let postgresUser: { uid: number; gid: number } | undefined;

/** The `postgres` user's ids (root only); throws when there is none. */
function postgresIds(): { uid: number; gid: number } {
  if (!postgresUser) {
    const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres']).toString().trim()));
    postgresUser = { uid: uid!, gid: gid! };
  }
  return postgresUser;
}

/** Why the machine cannot run real clusters, or undefined when it can (printed by the tests that skip). */
export function clusterUnavailableReason(): string | undefined {
  for (const tool of ['initdb', 'pg_ctl', 'pg_basebackup']) {
    try {
      accessSync(join(BIN, tool), constants.X_OK);
    } catch {
      return `${join(BIN, tool)} is missing (set POSTGRES_BIN_DIR to PostgreSQL 15's bin directory)`;
    }
  }
  if (asRoot) {
    try {
      postgresIds();
    } catch {
      return 'running as root without a `postgres` user to run PostgreSQL as';
    }
  }
  return undefined;
}

/** A directory the PostgreSQL user owns (mode 0700, as initdb and pg_basebackup want). */
export function ownedTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chownToPostgres(dir);
  return dir;
}

export function chownToPostgres(path: string): void {
  if (!asRoot) return;
  const { uid, gid } = postgresIds();
  chownSync(path, uid, gid);
}

export interface Cluster {
  port: number;
  /** Its folder: the data directory is `data` in it, the socket and server.log beside. */
  dir: string;
  /** A URL of one of its databases over TCP on 127.0.0.1. */
  url(database: string): string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it (immediately) and removes its files. */
  remove(): Promise<void>;
}

/** Every cluster not yet removed: stopped and removed if the process leaves without its teardown (a crash). */
const running = new Set<{ dir: string; data: string }>();
process.once('exit', () => {
  for (const { dir, data } of running) {
    try {
      execFileSync(...command(join(BIN, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']), { stdio: 'ignore' });
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

async function pgCtl(data: string, ...args: string[]): Promise<void> {
  await run(...command(join(BIN, 'pg_ctl'), ['-D', data, ...args]));
}

/** Settings of a throwaway test cluster: no fsync (its files die with the test), small, streaming allowed. */
export function settings(port: number, socketDir: string): string {
  return [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${socketDir}'`,
    'fsync = off',
    'full_page_writes = off',
    'shared_buffers = 32MB',
    'max_connections = 80',
    'wal_level = replica',
    'max_wal_senders = 4',
    'hot_standby = on',
    // The replica's tests pause replay on purpose: queries on it are never cancelled for waiting replay.
    'max_standby_streaming_delay = -1',
    "TimeZone = 'UTC'",
    '',
  ].join('\n');
}

/** A cluster over the data directory `<dir>/data` (made by the caller: initdb, pg_basebackup, a restore). */
export function makeCluster(dir: string, port: number): Cluster {
  const data = join(dir, 'data');
  const entry = { dir, data };
  running.add(entry);
  const cluster: Cluster = {
    port,
    dir,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: async () => {
      await pgCtl(data, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start');
    },
    stop: async () => {
      await pgCtl(data, '-m', 'fast', '-w', 'stop');
    },
    remove: async () => {
      await pgCtl(data, '-m', 'immediate', '-w', 'stop').catch(() => undefined);
      running.delete(entry);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}

/**
 * A new primary (initdb, trust authentication for local and replication connections), started; `extra` settings
 * (archiving) after the usual ones.
 */
export async function startPrimary(extra: string[] = []): Promise<Cluster> {
  const dir = ownedTempDir('spa-primary-');
  const port = await freePort();
  const cluster = makeCluster(dir, port);
  try {
    const data = join(dir, 'data');
    await run(
      ...command(join(BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']),
    );
    const conf = join(data, 'postgresql.auto.conf');
    writeFileSync(conf, settings(port, dir) + extra.map((line) => `${line}\n`).join(''), { flag: 'a' });
    await cluster.start();
    return cluster;
  } catch (error) {
    await cluster.remove();
    throw error;
  }
}

/** A streaming replica of `primary` (pg_basebackup -R -X stream), started, in recovery and caught up. */
export async function startReplica(primary: Cluster): Promise<Cluster> {
  const dir = ownedTempDir('spa-replica-');
  const port = await freePort();
  const cluster = makeCluster(dir, port);
  try {
    const data = join(dir, 'data');
    // A fast checkpoint: the default spread one would wait minutes for the primary's checkpoint schedule.
    const args = [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      data,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ];
    await run(...command(join(BIN, 'pg_basebackup'), args));
    // The copied settings name the primary's port and socket directory: the replica's own come after them.
    writeFileSync(join(data, 'postgresql.auto.conf'), settings(port, dir), { flag: 'a' });
    await cluster.start();
    await caughtUp(primary, cluster, 60_000);
    return cluster;
  } catch (error) {
    await cluster.remove();
    throw error;
  }
}

/** Waits until the replica is in recovery and has replayed everything the primary had written when asked. */
export async function caughtUp(primary: Cluster, replica: Cluster, withinMs: number): Promise<void> {
  const target = await queryOne<{ lsn: string }>(primary.url('postgres'), 'select pg_current_wal_lsn()::text as lsn');
  const deadline = performance.now() + withinMs;
  for (;;) {
    const state = await queryOne<{ standby: boolean; behind: boolean }>(
      replica.url('postgres'),
      `select pg_is_in_recovery() as standby,
              coalesce(pg_last_wal_replay_lsn() < '${target.lsn}'::pg_lsn, true) as behind`,
    ).catch(() => undefined);
    if (state?.standby && !state.behind) return;
    if (performance.now() > deadline) throw new Error(`the replica did not catch up within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One statement on a connection of its own; its first row. */
export async function queryOne<R>(url: string, text: string): Promise<R> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(text);
    return rows[0] as R;
  } finally {
    await client.end();
  }
}
