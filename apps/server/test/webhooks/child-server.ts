import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** The test process's environment without its database settings: the child gets exactly the ones given. */
function inherited(): Record<string, string | undefined> {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...rest } = process.env;
  return rest;
}

/** A port the system says is free now (the child binds it a moment later). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The real server (src/main.ts) as a child process: one node process (tsx as a loader, not a wrapper process),
 * so SIGKILL hits the server itself. Resolves once it is ready (`/readyz` 200).
 */
export async function startChildServer(env: Record<string, string>) {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: { ...inherited(), ...env, PORT: String(port), DEMO_DATA: 'off', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    // Ready, not just listening: the server answers 503 until its database is migrated.
    const ready = await fetch(`${base}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`server was not ready within 60 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    base,
    output: () => output,
    /** kill -9: no shutdown code runs. */
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
export type ChildServer = Awaited<ReturnType<typeof startChildServer>>;
