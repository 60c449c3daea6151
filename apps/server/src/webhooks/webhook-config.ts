/** How webhooks are delivered, from the environment (DECISIONS "Webhooks"). */
export interface WebhookConfig {
  /** Seconds to wait before each retry; after the last one a delivery is `failed`. */
  retrySchedule: number[];
  /** Local development and tests: http URLs and loopback, private or link-local addresses are allowed. */
  allowPrivateNetworks: boolean;
}

export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

type Env = Record<string, string | undefined>;

export function loadWebhookConfig(env: Env = process.env): WebhookConfig {
  return {
    retrySchedule: parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE),
    allowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS === 'true',
  };
}

/** `5,300,1800`: whole seconds, comma-separated; empty or unset gives the default. */
export function parseRetrySchedule(text: string | undefined): number[] {
  if (text === undefined || text.trim() === '') return DEFAULT_RETRY_SCHEDULE;
  const parts = text.split(',').map((s) => s.trim());
  if (parts.some((p) => !/^\d{1,7}$/.test(p)))
    throw new Error(
      `WEBHOOK_RETRY_SCHEDULE must be whole seconds separated by commas, such as 5,300,1800; got ${text}`,
    );
  return parts.map(Number);
}
