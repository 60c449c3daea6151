import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/**
 * The embedded database's files hold customers' names, emails and phone numbers (the WAL too) and its settings
 * (postgresql.conf): only the user that runs the server may read or change them. Everything this process creates
 * from here on is private (umask 077, whatever the container set), DATA_DIR is created 0700, and an existing one
 * that others could enter is made private, each directory 0700 and each file 0600. Returns how many paths were
 * tightened, for a warning.
 */
export function makeDataDirPrivate(dataDir: string): number {
  // The umask is the process's; a worker thread cannot set it (and never opens the embedded database).
  if (isMainThread) process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let tightened = 0;
  const visit = (path: string) => {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) return; // its target is not ours to change; PGlite makes none
    if (stats.mode & OTHERS) {
      chmodSync(path, stats.isDirectory() ? 0o700 : 0o600);
      tightened++;
    }
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dataDir);
  return tightened;
}

/** Permission bits no one but the owner gets: group and other. */
const OTHERS = 0o077;

type NodeFsOptions = Parameters<NodeFS['init']>[1];
/** The part of Emscripten's NODEFS this touches: the two setattr hooks every chmod and fchmod goes through. */
interface SetattrHooks {
  node_ops: { setattr(node: unknown, attr: { mode?: number }): void };
  stream_ops: { setattr(stream: unknown, attr: { mode?: number }): void };
}

/**
 * The embedded database's file system, with every mode it sets kept private. Emscripten's NODEFS creates a file
 * with the process umask, then chmods it to the mode PostgreSQL asked for inside WebAssembly (0666: the wasm
 * build knows no umask), which a umask cannot stop; its setattr hooks are wrapped to drop group and other bits.
 * Covered by test/faults/data-dir-modes.test.ts, which fails if a PGlite upgrade moves the hooks.
 */
export class PrivateNodeFS extends NodeFS {
  override async init(pg: PGlite, options: NodeFsOptions) {
    const { emscriptenOpts } = await super.init(pg, options);
    const keepPrivate = (module: { NODEFS: unknown }) => {
      const nodefs = module.NODEFS as SetattrHooks;
      for (const ops of [nodefs.node_ops, nodefs.stream_ops]) {
        const setattr = ops.setattr.bind(ops);
        ops.setattr = (target, attr) =>
          setattr(target, attr.mode === undefined ? attr : { ...attr, mode: attr.mode & ~OTHERS });
      }
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), keepPrivate] } };
  }
}
