import { lockDataDir } from './data-dir-lock.js';
import { seedDataDirFromTemplate } from './pglite-template.js';
import { makeDataDirPrivate } from './private-data-dir.js';

/** DATA_DIR held by this process for the embedded database, until `release`. */
export interface EmbeddedDataDir {
  dataDir: string;
  release(): void;
}

/**
 * Makes DATA_DIR private, locks it for this process, and fills an empty one from the build's template. Light on
 * imports (no PGlite, no Kysely), so main.ts can start it before it loads the server: a first start's template copy
 * (40 MB) then runs in the thread pool while the modules load.
 */
export async function claimDataDir(
  dataDir: string,
  onWarning?: (fields: Record<string, unknown>, message: string) => void,
): Promise<EmbeddedDataDir> {
  const tightened = makeDataDirPrivate(dataDir);
  if (tightened > 0)
    onWarning?.(
      { data_dir: dataDir, made_private: tightened },
      'DATA_DIR was open to other local users; made it private (directories 0700, files 0600)',
    );
  const release = lockDataDir(dataDir);
  try {
    if (await seedDataDirFromTemplate(dataDir)) makeDataDirPrivate(dataDir);
    return { dataDir, release };
  } catch (error) {
    release();
    throw error;
  }
}
