import { fileURLToPath } from 'node:url';
import { compiledEntry } from '../../src/lib/compiled-entry.js';

/**
 * The arguments of node running a compiled entry (dist/, fresh: the global setup builds it) with source maps on, as
 * `pnpm start` and `pnpm spa` run them: a test's child process runs what a user runs, never a TypeScript loader.
 */
export function compiledArgs(name: 'main' | 'spa', ...args: string[]): string[] {
  return ['--enable-source-maps', fileURLToPath(compiledEntry(name)), ...args];
}
