import { execFile } from 'node:child_process';
import { accessSync, constants, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';
import {
  type Cluster,
  chownToPostgres,
  clusterUnavailableReason,
  makeCluster,
  ownedTempDir,
  settings,
} from './postgres-cluster.js';

const PGBACKREST = process.env.PGBACKREST_BIN ?? '/usr/bin/pgbackrest';
const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;

/** Why the machine cannot run pgBackRest against a cluster of the test's own, or undefined when it can. */
export function pgBackRestUnavailableReason(): string | undefined {
  const cluster = clusterUnavailableReason();
  if (cluster) return cluster;
  try {
    accessSync(PGBACKREST, constants.X_OK);
  } catch {
    return `${PGBACKREST} is missing (Debian: apt-get install pgbackrest; or set PGBACKREST_BIN)`;
  }
  return undefined;
}

export interface BackRest {
  /** The settings a primary needs to archive its WAL into the repository. */
  archiveSettings: string[];
  /** Runs `pgbackrest <args>` for the stanza (as the `postgres` user when root); its stdout. */
  run(...args: string[]): Promise<string>;
  /** Restores into a new cluster (its own port and folder, archiving off) and starts it. */
  restoreInto(...args: string[]): Promise<Cluster>;
  remove(): void;
}

/**
 * A pgBackRest repository in a temporary folder, stanza `spa`, for a primary the caller starts with
 * `archiveSettings` and then names with `attach` (its data directory and socket).
 */
export function pgBackRest(): BackRest & { attach(primary: Cluster): Promise<void> } {
  const dir = ownedTempDir('spa-pgbackrest-');
  const config = join(dir, 'pgbackrest.conf');
  for (const sub of ['repo', 'log', 'lock', 'spool']) {
    mkdirSync(join(dir, sub));
    chownToPostgres(join(dir, sub));
  }
  const global = [
    '[global]',
    `repo1-path=${join(dir, 'repo')}`,
    'repo1-retention-full=2',
    `log-path=${join(dir, 'log')}`,
    `lock-path=${join(dir, 'lock')}`,
    `spool-path=${join(dir, 'spool')}`,
    'log-level-console=warn',
    'log-level-file=info',
    // A backup starts at once (a checkpoint now rather than spread over minutes).
    'start-fast=y',
    'compress-type=lz4',
  ];
  const exec = async (...args: string[]) => {
    const argv = [`--config=${config}`, '--stanza=spa', ...args];
    const [file, list] = asRoot ? ['runuser', ['-u', 'postgres', '--', PGBACKREST, ...argv]] : [PGBACKREST, argv];
    const { stdout } = await run(file, list, { maxBuffer: 10_000_000 });
    return stdout;
  };
  return {
    archiveSettings: [
      'archive_mode = on',
      `archive_command = '${PGBACKREST} --config=${config} --stanza=spa archive-push %p'`,
      'archive_timeout = 60',
    ],
    attach: async (primary) => {
      writeFileSync(
        config,
        [
          ...global,
          '[spa]',
          `pg1-path=${join(primary.dir, 'data')}`,
          `pg1-port=${primary.port}`,
          `pg1-socket-path=${primary.dir}`,
          '',
        ].join('\n'),
      );
      chownToPostgres(config);
      await exec('stanza-create');
      await exec('check');
    },
    run: exec,
    restoreInto: async (...args) => {
      const target = ownedTempDir('spa-restored-');
      const port = await freePort();
      const cluster = makeCluster(target, port);
      const data = join(target, 'data');
      await exec('restore', `--pg1-path=${data}`, ...args);
      // After the recovery settings pgBackRest wrote: this cluster's own port and socket, and no archiving into the
      // repository the original still owns.
      writeFileSync(join(data, 'postgresql.auto.conf'), settings(port, target) + "archive_mode = 'off'\n", {
        flag: 'a',
      });
      await cluster.start();
      return cluster;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
