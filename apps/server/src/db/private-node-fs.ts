import type { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { OTHERS } from './private-data-dir.js';

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
