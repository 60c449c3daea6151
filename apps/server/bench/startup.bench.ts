import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultAvailabilityThreads } from '../src/config/config.js';
import { type ChildServer, startChildServer } from '../test/faults/support/child-server.js';
import { percentile, verdict } from './stats.js';

const run = promisify(execFile);
const ROOT_DIR = fileURLToPath(new URL('../../..', import.meta.url));
/** The demo data's Paris venue, the one the README's commands use. */
const DEMO_VENUE = 'spa-lumiere-paris';
/** Runs of each command, taken in turns so that other work on a shared machine weighs on all of them alike. */
const ROUNDS = Number(process.env.BENCH_STARTUP_ROUNDS ?? 7);
const CLI_TARGET_MS = 1000;
const READY_TARGET_MS = 2000;

/**
 * `pnpm bench startup`: what a user waits for, measured from the repository's root as the README runs it (pnpm
 * included), beside plain `node -e ''` measured in the same rounds: `pnpm spa --help`, `pnpm spa bookings list`
 * beside a running server (the server runs the command), and `pnpm start` until `/readyz` answers 200 on the demo
 * data, the first start (an empty DATA_DIR: the database created, migrated and the demo data loaded) and a restart.
 * The CLI targets are over plain node's start-up; the server's is absolute. Also the same without pnpm (the
 * launcher run by node), to show pnpm's share.
 */
export async function benchStartup(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'spa-bench-startup-'));
  const load = loadavg()[0]!.toFixed(2);
  const names = ['node', 'help', 'helpWithoutPnpm', 'list', 'listWithoutPnpm', 'first', 'restart'] as const;
  const samples = Object.fromEntries(names.map((name) => [name, [] as Timing[]])) as Record<
    (typeof names)[number],
    Timing[]
  >;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const dataDir = join(dir, `data-${round}`);
      const env = { DATA_DIR: dataDir };
      samples.node.push(await timedCommand(process.execPath, ['-e', ''], env));
      samples.help.push(await timedCommand('pnpm', ['spa', '--help'], env));
      samples.helpWithoutPnpm.push(await timedCommand(process.execPath, [...launcher('spa'), '--help'], env));
      const [firstTiming, first] = await startUntilReady(env);
      samples.first.push(firstTiming);
      try {
        const list = ['bookings', 'list', '--venue', DEMO_VENUE];
        samples.list.push(await timedCommand('pnpm', ['spa', ...list], env));
        samples.listWithoutPnpm.push(await timedCommand(process.execPath, [...launcher('spa'), ...list], env));
      } finally {
        await stop(first);
      }
      const [restartTiming, restarted] = await startUntilReady(env);
      samples.restart.push(restartTiming);
      await stop(restarted);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const p50 = (values: Timing[], of: keyof Timing = 'wall') => percentile(values.map((v) => v[of]), 50);
  const node = p50(samples.node);
  const row = (label: string, values: Timing[], overNode = true) =>
    `  ${label.padEnd(66)} ${fmt(p50(values))} ${fmt(Math.max(...values.map((v) => v.wall)))}` +
    `${overNode ? fmt(p50(values) - node) : ''.padStart(9)} ${fmt(p50(values, 'cpu'))}`;
  return [
    `startup: ${ROUNDS} rounds; load average ${load} at the start, ${loadavg()[0]!.toFixed(2)} at the end ` +
      `(${cpus().length} cores). Wall time is what a user waits; CPU time (user + system, every process of the ` +
      'command) is the work, which a busy machine queues but does not grow.',
    `  ${''.padEnd(66)} ${'wall p50'.padStart(9)} ${'max'.padStart(9)} ${'- node'.padStart(9)} ${'CPU p50'.padStart(9)}`,
    row(`node -e ''`, samples.node, false),
    row('pnpm spa --help', samples.help),
    row('  node bin/spa.mjs --help (the same without pnpm)', samples.helpWithoutPnpm),
    row(`pnpm spa bookings list --venue ${DEMO_VENUE} (server running)`, samples.list),
    row('  node bin/spa.mjs bookings list (the same without pnpm)', samples.listWithoutPnpm),
    row('pnpm start until /readyz is 200: first start (empty DATA_DIR)', samples.first, false),
    row('pnpm start until /readyz is 200: restart (demo data there)', samples.restart, false),
    verdict('pnpm spa --help over plain node', p50(samples.help) - node, CLI_TARGET_MS, 'ms'),
    verdict('pnpm spa bookings list over plain node', p50(samples.list) - node, CLI_TARGET_MS, 'ms'),
    verdict('pnpm start to ready, first start', p50(samples.first), READY_TARGET_MS, 'ms'),
    verdict('pnpm start to ready, restart', p50(samples.restart), READY_TARGET_MS, 'ms'),
  ];
}

/** Milliseconds waited, and of CPU spent by the command's processes. */
interface Timing {
  wall: number;
  cpu: number;
}

const fmt = (value: number) => `${value.toFixed(0)} ms`.padStart(9);

/** Clock ticks a second, the unit of /proc's CPU times. */
const TICK_MS = 10;

/** The launcher as the root's scripts run it (`pnpm spa` is `exec node --enable-source-maps apps/server/bin/spa.mjs`). */
const launcher = (name: 'spa') => ['--enable-source-maps', join(ROOT_DIR, 'apps/server/bin', `${name}.mjs`)];

/**
 * Runs the command at the repository's root (it must succeed) from a shell that then prints its own /proc stat:
 * the CPU times of its waited-for children (cutime, cstime) are the command's, pnpm and its children included.
 */
async function timedCommand(file: string, args: string[], env: Record<string, string>): Promise<Timing> {
  const started = performance.now();
  const { stdout } = await run('sh', ['-c', '"$@" >/dev/null && cat /proc/$$/stat', 'sh', file, ...args], {
    cwd: ROOT_DIR,
    env: benchEnv(env),
  });
  const wall = performance.now() - started;
  const [cutime, cstime] = statFields(stdout).slice(13, 15);
  return { wall, cpu: (cutime! + cstime!) * TICK_MS };
}

/** The numbers after the command name of a /proc/<pid>/stat line (the 3rd field on). */
const statFields = (stat: string) => stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);

/** CPU milliseconds a running process has spent (utime + stime). */
function cpuOf(pid: number): number {
  const [utime, stime] = statFields(readFileSync(`/proc/${pid}/stat`, 'utf8')).slice(11, 13);
  return (utime! + stime!) * TICK_MS;
}

/**
 * `pnpm start` as the README runs it, until the first 200 of `/readyz`: the milliseconds from spawning it, and the
 * CPU spent by then by pnpm and the server (the shell between them execs the server).
 */
async function startUntilReady(env: Record<string, string>): Promise<[Timing, ChildServer]> {
  const started = performance.now();
  const server = await startChildServer(
    { ...benchEnv(env), DEMO_DATA: 'on', AVAILABILITY_THREADS: String(defaultAvailabilityThreads(1)) },
    'pnpm start',
  );
  try {
    while ((await fetch(`${server.base}/readyz`).catch(() => undefined))?.status !== 200) await sleep(10);
    const wall = performance.now() - started;
    return [{ wall, cpu: cpuOf(server.child.pid!) + cpuOf(Number(server.logs[0]!.pid)) }, server];
  } catch (error) {
    server.kill();
    throw error;
  }
}

async function stop(server: ChildServer) {
  server.child.kill('SIGTERM');
  const { code } = await server.exited;
  if (code !== 0) throw new Error(`the server exited ${code} on SIGTERM`);
}

/** The README's environment: the embedded database (no DATABASE_URL), one DATA_DIR per round. */
function benchEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _unused, ...rest } = process.env;
  return { ...rest, ...env };
}
