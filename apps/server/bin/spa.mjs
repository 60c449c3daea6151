// @ts-check
// `pnpm spa`: the compiled operator CLI (dist/spa.js), built first if the sources changed (build.mjs); any build
// output goes to stderr, so a command's stdout stays its own.
import { enableCompileCache, ensureBuilt, entryUrl } from './build.mjs';

ensureBuilt();
enableCompileCache();
await import(entryUrl('spa').href);
