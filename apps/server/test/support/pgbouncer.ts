import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';
import { chownToPostgres, ownedTempDir } from './postgres-cluster.js';

const PGBOUNCER = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';
const asRoot = process.getuid?.() === 0;

/** Why the machine cannot run PgBouncer, or undefined when it can. */
export function pgBouncerUnavailableReason(): string | undefined {
  try {
    accessSync(PGBOUNCER, constants.X_OK);
  } catch {
    return `${PGBOUNCER} is missing (Debian: apt-get install pgbouncer; or set PGBOUNCER_BIN)`;
  }
  return undefined;
}

export interface PgBouncer {
  port: number;
  /** The version line it printed (`PgBouncer 1.18.0`). */
  version: string;
  /** A URL of one of the target's databases through the pooler. */
  url(database: string): string;
  /** Its log so far (a test that fails prints it). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * A real PgBouncer in transaction pooling, in front of the PostgreSQL on 127.0.0.1:`targetPort`, on a free port with
 * its own ini, trust auth_file and socket directory in a temporary folder. It runs as a child process of the test
 * (as the `postgres` user when the test runs as root: PgBouncer refuses root) and is killed with its directory.
 * `options` is ignored at startup as the deploy guide says (the server sends TimeZone and timeouts there; the
 * database carries them instead), and `pools` adds databases with their own pool size.
 */
export async function startPgBouncer(
  targetPort: number,
  pools: { name: string; database: string; size: number }[] = [],
): Promise<PgBouncer> {
  const dir = ownedTempDir('spa-pgbouncer-');
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  const logFile = join(dir, 'pgbouncer.log');
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(
    ini,
    [
      '[databases]',
      ...pools.map((p) => `${p.name} = host=127.0.0.1 port=${targetPort} dbname=${p.database} pool_size=${p.size}`),
      `* = host=127.0.0.1 port=${targetPort}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 20',
      'max_client_conn = 500',
      'ignore_startup_parameters = options',
      `logfile = ${logFile}`,
      '',
    ].join('\n'),
  );
  for (const file of ['userlist.txt', 'pgbouncer.ini']) chownToPostgres(join(dir, file));
  const version = execFileSync(PGBOUNCER, ['--version']).toString().split('\n')[0]!.trim();
  const [file, args] = asRoot ? ['runuser', ['-u', 'postgres', '--', PGBOUNCER, ini]] : [PGBOUNCER, [ini]];
  // A process group of its own: killing it ends runuser and PgBouncer together.
  const child: ChildProcess = spawn(file, args, { stdio: 'ignore', detached: true });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const log = () => {
    try {
      return readFileSync(logFile, 'utf8');
    } catch {
      return '';
    }
  };
  const stop = async () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  });
  const bouncer = { port, version, url: (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`, log, stop };
  try {
    await answers(bouncer.url('postgres'), exited, 30_000);
    return bouncer;
  } catch (error) {
    const text = log();
    await stop();
    throw new Error(`${(error as Error).message}; its log: ${text}`, { cause: error });
  }
}

/** Waits until a query through it is answered (it listens a moment after it starts). */
async function answers(url: string, exited: Promise<number | null>, withinMs: number): Promise<void> {
  let gone: number | null | undefined;
  void exited.then((code) => (gone = code));
  const deadline = performance.now() + withinMs;
  for (;;) {
    if (gone !== undefined) throw new Error(`pgbouncer exited (${gone}) at start`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (error) {
      if (performance.now() > deadline) throw error;
    } finally {
      await client.end().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
