import { afterAll, beforeAll } from 'vitest';
import { type ChildServer, eventually, type StartCommand, startChildServer } from './child-server.js';
import { isReady } from './http.js';
import { type SeededDatabase, seedDatabase } from './seeded-database.js';

/**
 * For one describe: a seeded database, and `start()` for a ready child server on it (more env on top). Every
 * server started is killed, and the database dropped, after the describe, whatever the tests did.
 */
export function childServers(options: { rooms?: number } = {}) {
  let seeded: SeededDatabase | undefined;
  const started: ChildServer[] = [];
  beforeAll(async () => {
    seeded = await seedDatabase(options);
  });
  afterAll(async () => {
    for (const server of started) server.kill();
    await seeded?.drop();
  });
  return {
    get seeded(): SeededDatabase {
      if (!seeded) throw new Error('the database is seeded in beforeAll');
      return seeded;
    },
    async start(env: Record<string, string> = {}, command?: StartCommand): Promise<ChildServer> {
      const server = await startChildServer({ ...this.seeded.env, ...env }, command);
      started.push(server);
      await eventually(() => isReady(server.base), 30_000);
      return server;
    },
  };
}
