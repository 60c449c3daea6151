import type { Request } from 'express';
import { dashboardForbidden } from '../errors/dashboard-errors.js';
import type { DashboardDeps } from './dashboard-deps.js';

/** The scheme and Host this request was sent to (Express's req.protocol honours the app's trust proxy setting). */
export function requestOrigin(req: Request): string | null {
  const host = req.get('host');
  return host ? `${req.protocol}://${host}` : null;
}

/**
 * The dashboard's own origin is PUBLIC_URL's when it is set, else the scheme and Host the request was
 * sent to, so a browser at http://127.0.0.1:3000, at http://localhost:3000 or at a LAN address signs in alike.
 */
export function dashboardOriginOf(deps: Pick<DashboardDeps, 'origin'>, req: Request): string | null {
  return deps.origin ?? requestOrigin(req);
}

/**
 * The 403 `Forbidden` of a state-changing request from another origin, with a hint that says what to do: open the
 * dashboard at its own address, or (behind a proxy or under another name) set PUBLIC_URL to the one in use.
 */
export function originRefused(deps: Pick<DashboardDeps, 'origin'>, req: Request) {
  const sent = req.get('origin');
  const expected = dashboardOriginOf(deps, req);
  if (!sent)
    return dashboardForbidden(
      'The request carried no Origin header: changes are accepted only from the dashboard page itself.',
    );
  if (deps.origin)
    return dashboardForbidden(
      `This dashboard answers at ${deps.origin} (PUBLIC_URL), and the page was opened at ${sent}. Open ` +
        `${deps.origin}/dashboard, or set PUBLIC_URL to the address you use and restart the server.`,
    );
  return dashboardForbidden(
    `The page was opened at ${sent} but the request reached ${expected ?? 'the server without a Host header'}. ` +
      'A proxy in between must pass the Host header on, or set PUBLIC_URL to the address you use and restart the server.',
  );
}
