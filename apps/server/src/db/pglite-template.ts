import { copyFileSync, cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A first start on an empty DATA_DIR spent most of its time in PGlite's initdb (WebAssembly, 2-3 s) and the
 * migrations. The build (bin/build.mjs, through write-pglite-template.ts) makes a migrated, empty database
 * directory beside the bundle, once per set of migrations; an empty DATA_DIR gets a copy of it (a native file copy,
 * a fraction of a second, where PGlite's own `loadDataDir` tarball took 1.5 s to unpack through WebAssembly), and
 * the migrations then run as on every start, finding nothing to do. Without it (running from the sources, or a
 * build that could not make it) the start runs initdb as before: this template saves time and never decides what
 * the database holds. The demo snapshot below holds data, but only what the start would load itself.
 */
export const PGLITE_TEMPLATE_DIR = 'pglite-template';
/**
 * The same with the demo data loaded by the build (src/demo/demo-snapshot.ts), for a first start with demo data:
 * the one template that holds data, exactly what that start would import, finished by it with its keys and clock.
 */
export const PGLITE_DEMO_TEMPLATE_DIR = 'pglite-template-demo';

/** A template beside the running bundle (dist/), if the build made it. */
export function bundledTemplate(name = PGLITE_TEMPLATE_DIR): string | undefined {
  const path = join(fileURLToPath(new URL('.', import.meta.url)), name);
  return existsSync(join(path, 'PG_VERSION')) ? path : undefined;
}

/**
 * Copies the template into `dataDir` when it holds no database yet (the caller holds its lock). PG_VERSION, which
 * PGlite takes as "a database is here", is copied last: a copy cut short is made again at the next start.
 */
export function seedDataDirFromTemplate(dataDir: string, template = bundledTemplate()): boolean {
  if (!template || !existsSync(join(template, 'PG_VERSION')) || existsSync(join(dataDir, 'PG_VERSION'))) return false;
  cpSync(template, dataDir, { recursive: true, filter: (source) => source !== join(template, 'PG_VERSION') });
  copyFileSync(join(template, 'PG_VERSION'), join(dataDir, 'PG_VERSION'));
  return true;
}
