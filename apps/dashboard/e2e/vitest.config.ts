import { defineConfig } from 'vitest/config';

/**
 * The dashboard in a real browser (Debian's Chromium through playwright-core) against the real server: on the
 * embedded PGlite always, and again on the PostgreSQL server of DATABASE_URL when it is set. One file at a time:
 * each starts a server and a browser, and the machine has two cores.
 */
const projects = [{ extends: true as const, test: { name: 'browser-pglite', env: { E2E_DB: 'pglite' } } }];
if (process.env.DATABASE_URL) {
  projects.push({ extends: true as const, test: { name: 'browser-postgres', env: { E2E_DB: 'postgres' } } });
}

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['e2e/**/*.test.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 180_000,
    projects,
  },
});
