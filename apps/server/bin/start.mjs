// @ts-check
// `pnpm start`: the compiled server (dist/main.js), built first if the sources changed (build.mjs), and the
// dashboard the server serves (apps/dashboard), built first the same way when the workspace has it. The server is
// imported into this process rather than spawned, so SIGTERM and SIGINT reach the server itself and its exit code
// is the process's.
import './stop-before-serving.mjs';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { enableCompileCache, ensureBuilt, entryUrl, SERVER_DIR } from './build.mjs';

ensureBuilt();
const dashboardBuild = join(SERVER_DIR, '..', 'dashboard', 'scripts', 'build-if-missing.mjs');
if (existsSync(dashboardBuild)) {
  // Its report goes to stderr: stdout is the server's JSON log.
  const { buildDashboardIfMissing } = await import(pathToFileURL(dashboardBuild).href);
  buildDashboardIfMissing({ out: 2 });
}
enableCompileCache();
await import(entryUrl('main').href);
