import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The browser tests drive the built app the server serves: build it when it is missing or stale. */
export default function setup(): void {
  const dashboard = fileURLToPath(new URL('../..', import.meta.url));
  const result = spawnSync(process.execPath, ['scripts/build-if-missing.mjs'], { cwd: dashboard, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('could not build the dashboard for the browser tests');
}
