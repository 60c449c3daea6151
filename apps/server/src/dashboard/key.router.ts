import { DashboardErrorText, dashboardContract } from '@spa/contract/dashboard';
import { initServer } from '@ts-rest/express';
import { notFound } from '../errors/dashboard-errors.js';
import { dashboardKeyOf, describeKey, regenerateDashboardKeyOf, revealKey } from '../keys/keys.service.js';
import { actorOf } from './dashboard-actor.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { livemodeOf } from './dashboard-mode.js';
import { requireRecentConfirmation, requireRole } from './guards.js';
import { trailOf } from './resource-access.js';

/**
 * The organisation's dashboard key of the request's mode (admin; `?mode=test` for the test key): shown without its
 * secret, revealed or regenerated after a recent password confirmation, through the services the CLI's
 * `keys reveal` and `keys regenerate` use.
 */
export function keyRouter({ db, clock, vault }: DashboardDeps) {
  const admin = [requireRole('admin')];
  const confirmedAdmin = [requireRole('admin'), requireRecentConfirmation(clock)];
  return initServer().router(dashboardContract.key, {
    get: {
      middleware: admin,
      handler: async ({ res }) => ({
        status: 200,
        body: { data: (await dashboardKeyOf(db, actorOf(res).organisationId, livemodeOf(res))) ?? null },
      }),
    },
    reveal: {
      middleware: confirmedAdmin,
      handler: async ({ req, res }) => {
        const key = await dashboardKeyOf(db, actorOf(res).organisationId, livemodeOf(res));
        if (!key) throw notFound(DashboardErrorText.KeyNotFound);
        const revealed = await revealKey(db, vault, key.id, { audit: trailOf(req, res, clock) });
        return { status: 200, body: { data: { ...key, key: revealed.key } } };
      },
    },
    regenerate: {
      middleware: confirmedAdmin,
      handler: async ({ body, req, res }) => {
        const { organisationId } = actorOf(res);
        const livemode = livemodeOf(res);
        // The key this request replaces: the one the page showed, else the one active when the request arrived. Of two
        // admins pressing at the same moment, the second finds it already replaced and is told so (409), rather than
        // replacing the first one's new key.
        const current = body?.key_id ?? (await dashboardKeyOf(db, organisationId, livemode))?.id;
        const issued = await regenerateDashboardKeyOf(db, vault, organisationId, {
          now: clock.now(),
          audit: trailOf(req, res, clock),
          livemode,
          replacing: current,
        });
        return { status: 200, body: { data: { ...(await describeKey(db, issued.id)), key: issued.key } } };
      },
    },
  });
}
