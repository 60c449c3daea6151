// @ts-check
/**
 * The server's build: `src/main.ts` (the server), `src/cli/spa.ts` (the operator CLI) and
 * `src/availability/compute-worker.ts` (the availability worker threads) bundled by tsup (esbuild) into `dist/`,
 * ESM with source maps, `@spa/contract` compiled in and every other dependency left to `node_modules`. The options
 * are the `tsup` field of package.json. Plain JavaScript: it runs before anything is compiled.
 *
 * `dist/` carries the hash of everything the build read (INPUTS). A launcher (`bin/start.mjs`, `bin/spa.mjs`) and
 * the test suite compare it with the sources before running anything, and build first when they differ: a stale
 * build never runs silently. `node bin/build.mjs` (`pnpm build`) builds only when stale; `--force` always.
 */
import { spawnSync } from 'node:child_process';
import module from 'node:module';
import { createHash } from 'node:crypto';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
export const DIST_DIR = join(SERVER_DIR, 'dist');
const ROOT_DIR = join(SERVER_DIR, '..', '..');
const BUILD_SCRIPT = fileURLToPath(import.meta.url);
const STAMP = '.inputs.sha256';
const LOCK = join(SERVER_DIR, '.build.lock');

/**
 * Everything the bundle is made of, from the repository root: the server's sources, the contract's (compiled in),
 * the build options and this script, the TypeScript settings esbuild reads, and the lockfile (the bundler's version).
 */
const INPUTS = [
  'apps/server/src',
  'apps/server/package.json',
  'apps/server/tsconfig.json',
  'apps/server/bin/build.mjs',
  'packages/contract/src',
  'packages/contract/package.json',
  'tsconfig.base.json',
  'pnpm-lock.yaml',
];

/** The URL of a compiled entry (`main`, `spa`, `compute-worker`). */
export const entryUrl = (/** @type {string} */ name) => pathToFileURL(join(DIST_DIR, `${name}.js`));

/**
 * Node 22.1+ keeps the compiled code of the modules a process loads (on disk, in the temp directory) for the next
 * start; Node 20 has no such cache and this does nothing there.
 */
export function enableCompileCache() {
  const api = /** @type {{ enableCompileCache?: () => unknown }} */ (/** @type {unknown} */ (module));
  api.enableCompileCache?.();
}

/** A hash of every input file's path and bytes (a few milliseconds: cheaper than any doubt about mtimes). */
export function inputsHash() {
  return hashOf(INPUTS);
}

/** A hash of every file's path and bytes under `inputs` (paths from the repository root). */
function hashOf(/** @type {string[]} */ inputs) {
  const hash = createHash('sha256');
  const add = (/** @type {string} */ path) => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) add(join(path, name));
      return;
    }
    hash.update(relative(ROOT_DIR, path)).update('\0').update(readFileSync(path)).update('\0');
  };
  for (const input of inputs) add(join(ROOT_DIR, input));
  return hash.digest('hex');
}

/** Whether `dist/` was built from the sources as they are now. */
export function isFresh(hash = inputsHash()) {
  try {
    return readFileSync(join(DIST_DIR, STAMP), 'utf8') === hash;
  } catch {
    return false;
  }
}

/**
 * Builds `dist/` first if the sources changed since it was built (in a child process, its output on stderr so a
 * command's stdout stays the command's). Throws when the build fails.
 */
export function ensureBuilt() {
  if (isFresh()) return;
  const result = spawnSync(process.execPath, [BUILD_SCRIPT], { cwd: SERVER_DIR, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) throw new Error(`the server's build failed (node ${relative(ROOT_DIR, BUILD_SCRIPT)})`);
}

/**
 * One build at a time (a server start and a test run may both find `dist/` stale): the lock file holds the builder's
 * pid; one whose process is gone is taken over.
 */
async function withLock(/** @type {() => Promise<void>} */ work) {
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      const fd = openSync(LOCK, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      if (!lockHolderAlive()) rmSync(LOCK, { force: true });
      else if (Date.now() > deadline) throw new Error(`${LOCK} is held by a build that does not end`);
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    await work();
  } finally {
    rmSync(LOCK, { force: true });
  }
}

function lockHolderAlive() {
  try {
    const pid = Number(readFileSync(LOCK, 'utf8'));
    // Empty: its holder is between creating and writing it, unless that was long ago.
    if (!pid) return Date.now() - statSync(LOCK).mtimeMs < 10_000;
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/** What the embedded database's template is made of: the migrations, how PGlite is opened, PGlite's version. */
const TEMPLATE_INPUTS = [
  'apps/server/src/migrations',
  'apps/server/src/db/migrate.ts',
  'apps/server/src/db/connect.ts',
  'apps/server/src/db/write-pglite-template.ts',
  'pnpm-lock.yaml',
];
/**
 * Puts the migrated, empty embedded database (src/db/pglite-template.ts) into the new build, made by its own
 * bundled entry once per TEMPLATE_INPUTS, so a rebuild for any other change costs nothing here. A template that
 * cannot be made is not fatal: a first start then runs PGlite's initdb.
 */
function writePgliteTemplate(/** @type {string} */ next) {
  putDatabase(next, 'pglite-template', hashOf(TEMPLATE_INPUTS), [], 'a first start will run initdb');
}

/**
 * Puts the demo snapshot (src/demo/demo-snapshot.ts) into the new build: the template with the demo data loaded
 * by the importer. What the importer writes depends on most of the server's code, so it is made once per build
 * inputs (`hash`). Without it (the template missing, or this failing) a first start imports the demo data itself.
 */
function writeDemoSnapshot(/** @type {string} */ next, /** @type {string} */ hash) {
  const template = join(next, 'pglite-template');
  if (!existsSync(template)) return;
  putDatabase(next, 'pglite-template-demo', hash, ['--demo', template], 'a first start will import the demo data');
}

/**
 * Copies the database `name` into the new build from node_modules/.cache/NAME/KEY, made there first by the build's
 * write-pglite-template.js entry (with `args`) when that key has none; the cache keeps only the latest key.
 * A failure is reported with `fallback` (what a first start does instead) and leaves the build without it.
 */
function putDatabase(
  /** @type {string} */ next,
  /** @type {string} */ name,
  /** @type {string} */ key,
  /** @type {string[]} */ args,
  /** @type {string} */ fallback,
) {
  const cache = join(SERVER_DIR, 'node_modules', '.cache', name);
  const cached = join(cache, key);
  if (!existsSync(cached)) {
    mkdirSync(cache, { recursive: true });
    for (const stale of readdirSync(cache)) rmSync(join(cache, stale), { recursive: true, force: true });
    const made = spawnSync(process.execPath, [join(next, 'write-pglite-template.js'), ...args, cached], {
      stdio: ['ignore', 2, 2],
    });
    if (made.status !== 0) {
      console.error(`The embedded database ${name} could not be made: ${fallback}.`);
      return;
    }
  }
  cpSync(cached, join(next, name), { recursive: true });
}

/**
 * Bundles into a new directory beside `dist/`, stamps it, then swaps it in by renaming: a process starting meanwhile
 * sees the old build or the new one, never half of one. Source maps point from there to `src/` by relative paths,
 * which the rename keeps (same depth).
 */
async function build(/** @type {{ force: boolean }} */ { force }) {
  await withLock(async () => {
    const hash = inputsHash();
    if (!force && isFresh(hash)) return;
    const started = performance.now();
    console.error('Building apps/server/dist: the sources changed since the last build.');
    const { build: tsup } = await import('tsup');
    const options = JSON.parse(readFileSync(join(SERVER_DIR, 'package.json'), 'utf8')).tsup;
    const next = join(SERVER_DIR, `.dist-${process.pid}`);
    const old = join(SERVER_DIR, `.dist-old-${process.pid}`);
    // tsup reads the dependencies to leave external from the package.json of the working directory.
    process.chdir(SERVER_DIR);
    try {
      await tsup({ ...options, outDir: next, config: false, silent: true });
    } catch (error) {
      rmSync(next, { recursive: true, force: true }); // a failed build leaves dist/ as it was, and nothing else
      throw error;
    }
    writePgliteTemplate(next);
    writeDemoSnapshot(next, hash);
    writeFileSync(join(next, STAMP), hash);
    rmSync(old, { recursive: true, force: true });
    try {
      renameSync(DIST_DIR, old);
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ENOENT') throw error;
    }
    renameSync(next, DIST_DIR);
    rmSync(old, { recursive: true, force: true });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.error(`Built apps/server/dist in ${seconds} s.`);
  });
}

if (process.argv[1] === BUILD_SCRIPT) {
  try {
    await build({ force: process.argv.includes('--force') });
  } catch (error) {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  }
}
