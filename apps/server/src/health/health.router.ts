import { sql } from 'kysely';
import { Router } from 'express';
import type { Db } from '../db/connect.js';
import type { Lifecycle } from './lifecycle.js';

/** docs/api.md, "Operating in production": ready means the database answers within this long. */
const READY_WITHIN_MS = 1000;

/** Resolves true when `select 1` answers in time; a slow or failing database is simply "not ready". */
export async function databaseAnswers(db: Db, withinMs = READY_WITHIN_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), withinMs);
  });
  const answered = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/healthz`: the process runs (no key, no database). `/readyz`: the database answers within 1 s and the process
 * is not starting or shutting down. Load balancers route by the second; orchestrators restart by the first.
 */
export function healthRouter(db: Db, lifecycle: Lifecycle): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  router.get('/readyz', (_req, res, next) => {
    const answer = (ready: boolean) => {
      res.setHeader('Cache-Control', 'no-store');
      res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable' });
    };
    if (lifecycle.state !== 'ready') return answer(false);
    databaseAnswers(db).then((ok) => answer(ok && lifecycle.state === 'ready'), next);
  });
  return router;
}
