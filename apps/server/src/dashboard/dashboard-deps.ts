import type { AvailabilityCache } from '../availability/availability-cache.js';
import type { KeyVault } from '../auth/api-key.js';
import type { Db } from '../db/connect.js';
import type { Clock } from '../lib/clock.js';
import type { WebhookConfig } from '../config/config.js';
import type { DeskFeed } from './desk-feed.js';
import type { SignInThrottle } from './sign-in-throttle.js';

/** What every dashboard area is built with (dashboard.router.ts makes one for all of them). */
export interface DashboardDeps {
  db: Db;
  clock: Clock;
  vault: KeyVault;
  /** PUBLIC_URL without a trailing slash (or the default): the CLI's invitation URLs start with it. */
  publicUrl: string;
  /**
   * PUBLIC_URL's origin when it is set: state-changing requests must carry it as Origin. Null when it is not: then
   * the dashboard's origin is the scheme and Host each request was sent to (dashboard-origin.ts).
   */
  origin: string | null;
  /** Cookies get Secure when the public URL is https. */
  secureCookies: boolean;
  throttle: SignInThrottle;
  /** The address rules for webhook URLs and the retry schedule (the same as the delivery loop's). */
  webhooks: WebhookConfig;
  /** Told of the therapist workflow's commits, so a read after them never sees the schedule from before. */
  availabilityCache?: AvailabilityCache | undefined;
  /** The venue change notices the desk's live updates follow; without it the desk page polls. */
  deskFeed?: DeskFeed | undefined;
}

/** The dashboard's settings from PUBLIC_URL, and whether it was set (the origin follows it only then). */
export function dashboardSettings(publicUrl: string, publicUrlSet: boolean) {
  const url = new URL(publicUrl);
  return {
    publicUrl: publicUrl.replace(/\/+$/, ''),
    origin: publicUrlSet ? url.origin : null,
    secureCookies: url.protocol === 'https:',
  };
}
