import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { compiledArgs } from '../../support/compiled.js';

const SERVER_DIR = fileURLToPath(new URL('../../..', import.meta.url));
const ROOT_DIR = fileURLToPath(new URL('../../../../..', import.meta.url));

export interface ChildServer {
  child: ChildProcess;
  base: string;
  /** Every JSON log line of the child so far. */
  logs: { msg?: string; [field: string]: unknown }[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills it and what it started, if they still run (a failed test must not leave a server behind). */
  kill(): void;
}

/**
 * How a test starts the server: `node` runs the compiled entry (`dist/main.js`) as the launcher does, and
 * `pnpm start` is the README's and the deploy guide's command itself, run at the repository's root (pnpm, its shell,
 * the launcher), so a signal sent to the child is a signal sent to pnpm; and the same as a container's PID 1.
 */
export type StartCommand = 'node' | 'pnpm start' | 'pnpm start as PID 1';

const COMMANDS: Record<StartCommand, () => [string, string[], string]> = {
  node: () => [process.execPath, compiledArgs('main'), SERVER_DIR],
  'pnpm start': () => ['pnpm', ['start'], ROOT_DIR],
  // As a container runs it: pnpm is PID 1 of a PID namespace of its own (unshare forks it and waits for it).
  'pnpm start as PID 1': () => ['unshare', ['--pid', '--fork', '--mount-proc', 'pnpm', 'start'], ROOT_DIR],
};

/**
 * The real server in a child process on an ephemeral port. Resolves once it listens (`/healthz` answers), which
 * may be before its database is ready.
 */
export async function startChildServer(
  env: Record<string, string>,
  command: StartCommand = 'node',
): Promise<ChildServer> {
  // No availability worker threads unless a test asks for them: each loads its modules at start, seconds of CPU
  // on a busy 2-core machine that the tests about other things would wait for.
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    LOG_LEVEL: 'info',
    DEMO_DATA: 'off',
    AVAILABILITY_THREADS: '0',
    ...env,
  };
  if (!('DATABASE_URL' in env)) delete childEnv.DATABASE_URL;
  const [file, args, cwd] = COMMANDS[command]();
  const child = spawn(file, args, {
    cwd,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    // A group of its own: kill() ends pnpm, its shell and the server together.
    detached: true,
  });
  const logs: ChildServer['logs'] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as ChildServer['logs'][number];
      logs.push(entry);
      if (typeof entry.port === 'number') resolve(entry.port);
    });
    void exited.then(({ code }) => reject(new Error(`server exited (${code}) before listening: ${stderr.join('')}`)));
    setTimeout(
      () => reject(new Error('server did not log its port within 60 s (LOG_LEVEL must be info)')),
      60_000,
    ).unref();
  }).catch((error: unknown) => {
    killGroup(child);
    throw error;
  });
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    logs,
    exited,
    // The whole group, even once the child has exited: a process it left behind is still in it.
    kill: () => killGroup(child),
  };
}

function killGroup(child: ChildProcess) {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // the group has ended meanwhile
  }
}

/** Polls `check` every 50 ms until it returns true; the elapsed milliseconds, or a failure after `withinMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, withinMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return performance.now() - started;
    if (performance.now() - started > withinMs) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
