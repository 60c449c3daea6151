// @ts-check
// `pnpm start`: the compiled server (dist/main.js), built first if the sources changed (build.mjs). Imported into
// this process rather than spawned, so SIGTERM and SIGINT reach the server itself and its exit code is the process's.
import { enableCompileCache, ensureBuilt, entryUrl } from './build.mjs';

ensureBuilt();
enableCompileCache();
await import(entryUrl('main').href);
