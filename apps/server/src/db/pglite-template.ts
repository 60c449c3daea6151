import { existsSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * A first start on an empty DATA_DIR spent most of its time in PGlite's initdb (WebAssembly, 2-3 s) and the
 * migrations. The build (bin/build.mjs, through write-pglite-template.ts) makes a migrated, empty database
 * directory beside the bundle, once per set of migrations; an empty DATA_DIR gets a copy of it (a native file copy,
 * a fraction of a second, where PGlite's own `loadDataDir` tarball took 1.5 s to unpack through WebAssembly), and
 * the migrations then run as on every start, finding nothing to do. Without it (running from the sources, or a
 * build that could not make it) the start runs initdb as before: the template saves time and never decides what
 * the database holds.
 */
export const PGLITE_TEMPLATE_DIR = 'pglite-template';

/** The template beside the running bundle (dist/), if the build made one. */
export function bundledTemplate(): string | undefined {
  const path = join(fileURLToPath(new URL('.', import.meta.url)), PGLITE_TEMPLATE_DIR);
  return existsSync(join(path, 'PG_VERSION')) ? path : undefined;
}

/**
 * Copies the template into `dataDir` when it holds no database yet (the caller holds its lock). PG_VERSION, which
 * PGlite takes as "a database is here", is copied last: a copy cut short is made again at the next start. The copy
 * (40 MB) runs on a thread of its own, so a first start loads the server's modules meanwhile (main.ts).
 */
export async function seedDataDirFromTemplate(dataDir: string, template = bundledTemplate()): Promise<boolean> {
  if (!template || !existsSync(join(template, 'PG_VERSION')) || existsSync(join(dataDir, 'PG_VERSION'))) return false;
  await copyInThread(template, dataDir);
  await copyFile(join(template, 'PG_VERSION'), join(dataDir, 'PG_VERSION'));
  return true;
}

/**
 * cpSync on a worker thread. Not fs.promises.cp: it queues a thousand small jobs on libuv's pool, which the module
 * loader reads its files through, and made a first start slower (measured: ~1 s) instead of faster.
 */
function copyInThread(template: string, dataDir: string): Promise<void> {
  const code = `
    const { cpSync } = require('node:fs');
    const { join } = require('node:path');
    const { template, dataDir } = require('node:worker_threads').workerData;
    cpSync(template, dataDir, { recursive: true, filter: (source) => source !== join(template, 'PG_VERSION') });`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { template, dataDir } });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the template copy exited ${code}`))));
  });
}
