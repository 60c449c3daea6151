import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The suite runs on the embedded PGlite always, and again on the PostgreSQL server of DATABASE_URL when it is
 * set (each test file gets its own database cloned from a migrated template; see test/support/).
 */
const projects = [{ extends: true as const, test: { name: 'pglite', env: { TEST_DB: 'pglite' } } }];
if (process.env.DATABASE_URL) {
  projects.push({ extends: true as const, test: { name: 'postgres', env: { TEST_DB: 'postgres' } } });
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Files of a worker share the module cache and the worker's PGlite instances (test/support/test-db.ts): each
    // file still gets an empty database, without paying the imports and the WebAssembly start-up again.
    isolate: false,
    // Vitest's default for `run` is cores - 1, one worker on a 2-core machine; many files here mostly wait (child
    // server processes, sockets, timers), so two workers finish the suite in about two thirds of the time.
    maxWorkers: Math.max(2, availableParallelism()),
    // Deadlines against a hang, never a measure of speed: CPU-bound tests (the fast-check properties, the worker
    // pool's 62-day answers) take a few seconds alone and over a minute while busy loops hold both cores.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    projects,
  },
});
