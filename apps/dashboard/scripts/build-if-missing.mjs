// `pnpm start` runs this first: it builds the dashboard when dist/ is missing or older than its sources (the app
// or the contract it is typed by), so a fresh clone's `pnpm install && pnpm start` serves it with no other step.
// The server's launcher imports it (a process less on every start); `node scripts/build-if-missing.mjs` runs it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'dist', 'index.html');
const sources = [
  join(root, 'src'),
  join(root, 'index.html'),
  join(root, 'public'),
  join(root, '../../packages/contract/src'),
];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/**
 * Builds the dashboard when dist/ is missing or stale. `out` is the file descriptor its report and the build's
 * output go to (the server's launcher passes stderr: its stdout is the server's JSON log).
 */
export function buildDashboardIfMissing({ out = 1 } = {}) {
  const report = (/** @type {string} */ line) => (out === 2 ? console.error(line) : console.log(line));
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  if (builtAt > 0 && Math.max(...sources.map(newest)) <= builtAt) {
    report('dashboard: the build in apps/dashboard/dist is up to date');
    return;
  }
  report(builtAt ? 'dashboard: sources changed, building again…' : 'dashboard: building it once…');
  // A production build whatever the caller runs under (vitest sets NODE_ENV=test, which would bundle React's
  // development build).
  const result = spawnSync('pnpm', ['run', 'build'], {
    cwd: root,
    stdio: ['ignore', out, out],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    console.error('dashboard: the build failed; the server starts without it (/dashboard answers 503)');
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) buildDashboardIfMissing();
