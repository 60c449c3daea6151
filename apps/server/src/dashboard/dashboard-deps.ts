import type { AvailabilityCache } from '../availability/availability-cache.js';
import type { KeyVault } from '../auth/api-key.js';
import type { Db } from '../db/connect.js';
import type { Clock } from '../lib/clock.js';
import type { WebhookConfig } from '../config/config.js';
import type { SignInThrottle } from './sign-in-throttle.js';

/** What every dashboard area is built with (dashboard.router.ts makes one for all of them). */
export interface DashboardDeps {
  db: Db;
  clock: Clock;
  vault: KeyVault;
  /** PUBLIC_URL without a trailing slash: invitation URLs start with it. */
  publicUrl: string;
  /** Its origin (scheme, host, port): state-changing requests must carry it as Origin. */
  origin: string;
  /** Cookies get Secure when the public URL is https. */
  secureCookies: boolean;
  throttle: SignInThrottle;
  /** The address rules for webhook URLs and the retry schedule (the same as the delivery loop's). */
  webhooks: WebhookConfig;
  /** Told of the therapist workflow's commits, so a read after them never sees the schedule from before. */
  availabilityCache?: AvailabilityCache | undefined;
}

export function dashboardSettings(publicUrl: string) {
  const url = new URL(publicUrl);
  return {
    publicUrl: publicUrl.replace(/\/+$/, ''),
    origin: url.origin,
    secureCookies: url.protocol === 'https:',
  };
}
