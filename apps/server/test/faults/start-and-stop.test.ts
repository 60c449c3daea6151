import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const START = fileURLToPath(new URL('../../bin/start.mjs', import.meta.url));
const pidNamespaces = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;

interface Started {
  child: ChildProcess;
  /** The server's own process: PID 1 of its namespace when run as a container's. */
  pid: () => number;
  lines: string[];
  exited: Promise<{ code: number | null; at: number }>;
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** `node bin/start.mjs` (what `pnpm start` execs) on the embedded database of a new folder, as PID 1 if it can. */
function start(env: Record<string, string> = {}, asPid1 = pidNamespaces): Started {
  const dataDir = mkdtempSync(join(tmpdir(), 'spa-start-'));
  dirs.push(dataDir);
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    LOG_LEVEL: 'info',
    DEMO_DATA: 'off',
    AVAILABILITY_THREADS: '0',
    DATA_DIR: dataDir,
    ...env,
  };
  if (!('DATABASE_URL' in env)) delete childEnv.DATABASE_URL;
  const [file, args] = asPid1
    ? ['unshare', ['--pid', '--fork', '--mount-proc', process.execPath, START]]
    : [process.execPath, [START]];
  const child = spawn(file, args, { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.on('data', (chunk: Buffer) => {
      const parts = (rest + chunk.toString()).split('\n');
      rest = parts.pop()!;
      lines.push(...parts);
    });
  }
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('exit', (code) => resolve({ code, at: performance.now() })),
  );
  const pid = () =>
    asPid1 ? Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim()) : child.pid!;
  return { child, pid, lines, exited };
}

const kill = (started: Started) => {
  try {
    process.kill(-started.child.pid!, 'SIGKILL');
  } catch {
    // ended already
  }
};

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms))]);

/** Log lines at warn (40) or above. */
const complaints = (lines: string[]) =>
  lines.filter((line) => line.startsWith('{') && (JSON.parse(line) as { level: number }).level >= 40);

/** Polls `read` every 5 ms until it gives a truthy value (or throws no more), for 30 s at most. */
async function eventuallyValue<T>(read: () => T): Promise<T> {
  const until = performance.now() + 30_000;
  for (;;) {
    try {
      const value = read();
      if (value) return value;
    } catch {
      // not there yet
    }
    if (performance.now() > until) throw new Error('not within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('starting and stopping the real start script', () => {
  it.skipIf(!pidNamespaces)(
    'ends with exit 0 within 5 s, logging no warning, whenever SIGTERM comes during the start (as PID 1)',
    { timeout: 240_000 },
    async () => {
      const outcomes: Record<string, unknown> = {};
      // From the launcher's first output on (its first line has run by then). Before Node runs any of it, the kernel
      // drops a PID 1's SIGTERM (Node's own handler re-raises it); only an init in front (`docker run --init`) helps.
      for (const delayMs of [0, 100, 300, 600, 1000, 2000, 4000]) {
        const server = start({ KEY_ENCRYPTION_KEY: 'ab'.repeat(32) });
        try {
          const pid = await eventuallyValue(() => server.pid());
          await eventuallyValue(() => server.lines.length > 0);
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          const sent = performance.now();
          process.kill(pid, 'SIGTERM');
          const result = await within(server.exited, 5_000);
          outcomes[`${delayMs} ms`] =
            result === 'still running'
              ? { result, lines: server.lines }
              : { code: result.code, complaints: complaints(server.lines) };
          if (result !== 'still running') expect(result.at - sent).toBeLessThan(5_000);
        } finally {
          kill(server);
        }
      }
      expect(outcomes).toEqual(
        Object.fromEntries(Object.keys(outcomes).map((delay) => [delay, { code: 0, complaints: [] }])),
      );
    },
  );

  it('refuses DATABASE_URL=not-a-url at once, with one sentence', { timeout: 60_000 }, async () => {
    const server = start({ DATABASE_URL: 'not-a-url' }, false);
    try {
      const result = await within(server.exited, 10_000);
      expect(result).toMatchObject({ code: 1 });
      expect(server.lines).toContain(
        'DATABASE_URL must be a PostgreSQL URL such as postgres://user@host:5432/database (it must start with postgres:// or postgresql:// and hold no blank)',
      );
    } finally {
      kill(server);
    }
  });

  it('fails at once, with one sentence, on a port another program listens on', { timeout: 60_000 }, async () => {
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(0, '::', resolve));
    const port = (other.address() as { port: number }).port;
    const server = start({ PORT: String(port) }, false);
    const began = performance.now();
    try {
      const result = await within(server.exited, 10_000);
      expect(result).toMatchObject({ code: 1 });
      if (result !== 'still running') expect(result.at - began).toBeLessThan(5_000);
      expect(server.lines).toContain(
        `Port ${port} is already in use by another program: stop it, or set PORT to a free port`,
      );
      expect(server.lines.join('\n')).not.toContain('EADDRINUSE');
    } finally {
      kill(server);
      other.close();
    }
  });
});
