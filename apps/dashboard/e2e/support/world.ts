import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';

const SERVER_DIR = fileURLToPath(new URL('../../../server', import.meta.url));
const DEMO_DATA = join(SERVER_DIR, 'src/demo/demo-data.json');
const run = promisify(execFile);

/** Which database this project runs on: the embedded PGlite, or a fresh database on DATABASE_URL's server. */
export const e2eDb = process.env.E2E_DB === 'postgres' ? 'postgres' : 'pglite';

export interface World {
  /** http://127.0.0.1:PORT, the server's PUBLIC_URL unless started without one: the dashboard is at `${base}/dashboard`. */
  base: string;
  /** `pnpm spa …` against the same database; its standard output. */
  spa(...args: string[]): Promise<string>;
  close(): Promise<void>;
}

/** A port the system says is free now; the server needs it before it starts, for its PUBLIC_URL. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * The real server (`bin/start.mjs`, the compiled server that `pnpm start` runs) on a database of its own holding the demo organisations,
 * imported by the operator CLI. Webhooks may go to loopback receivers and are retried within seconds.
 */
export async function startWorld(options: { publicUrl?: 'unset' } = {}): Promise<World> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    PUBLIC_URL: base,
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    DEMO_DATA: 'off',
    AVAILABILITY_THREADS: '0',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '1,2,3',
  };
  // Without PUBLIC_URL the dashboard's origin is each request's own scheme and Host (how a first `pnpm start` runs).
  if (options.publicUrl === 'unset') delete env.PUBLIC_URL;
  let dataDir: string | undefined;
  let database: string | undefined;
  if (e2eDb === 'postgres') {
    database = `spa_e2e_${randomBytes(6).toString('hex')}`;
    await admin(`create database ${database}`);
    env.DATABASE_URL = withDatabase(process.env.DATABASE_URL!, database);
  } else {
    delete env.DATABASE_URL;
    dataDir = mkdtempSync(join(tmpdir(), 'spa-e2e-'));
    env.DATA_DIR = dataDir;
  }
  const spa = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, ['--enable-source-maps', 'bin/spa.mjs', ...args], {
      cwd: SERVER_DIR,
      env,
    });
    return stdout;
  };
  await spa('import', DEMO_DATA);
  const child = spawn(process.execPath, ['--enable-source-maps', 'bin/start.mjs'], {
    cwd: SERVER_DIR,
    env,
    stdio: ['ignore', process.env.E2E_LOG_LEVEL ? 'inherit' : 'ignore', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  try {
    await ready(base, child, stderr);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    base,
    spa,
    close: async () => {
      await stop(child);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      if (database) await admin(`drop database if exists ${database} with (force)`);
    },
  };
}

/** Waits until /readyz answers 200 (migrated and serving), within 90 s. */
async function ready(base: string, child: ChildProcess, stderr: string[]): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr.join('')}`);
    const status = await fetch(`${base}/readyz`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server not ready within 90 s: ${stderr.join('')}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
