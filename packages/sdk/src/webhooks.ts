import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_HEADERS, WebhookEvent as WebhookEventSchema, type WebhookEventType } from '@spa/contract';
import type { z } from 'zod';

/** Every webhook event, told apart by `type` (inferred from the contract's schemas). */
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
/** The event of one type: `WebhookEventOf<'booking.confirmed'>`. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;
export type { WebhookEventType };

/** Why a delivery was refused; answer 400 (or 401) and do not process it. */
export type WebhookErrorCode =
  'missing_headers' | 'invalid_secret' | 'stale_timestamp' | 'invalid_signature' | 'invalid_payload';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly code: WebhookErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export type WebhookVerification =
  | { ok: true; event: WebhookEvent; /** webhook-id: the same on every retry; deduplicate on it */ id: string }
  | { ok: false; error: WebhookVerificationError };

/** Node's IncomingHttpHeaders, a fetch Headers, or a plain object. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far webhook-timestamp may be from now, either way (default 300 s, as Standard Webhooks). */
  toleranceSeconds?: number;
  /** The current time (tests). */
  now?: Date;
}

/**
 * Verifies a delivery as Standard Webhooks does (HMAC-SHA256 of `{id}.{timestamp}.{body}` under the base64
 * secret after `whsec_`, any one of the space-separated `v1,` signatures, a timestamp within 5 minutes) and
 * parses the body against the contract. Pass the raw body exactly as received, before any JSON parsing.
 * Written here instead of wrapping the `standardwebhooks` package so that each refusal has its own code; the
 * tests check it against that package both ways.
 */
export function verifyWebhook(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): WebhookVerification {
  const fail = (code: WebhookErrorCode, message: string) =>
    ({ ok: false, error: new WebhookVerificationError(code, message) }) as const;
  const id = header(headers, WEBHOOK_HEADERS.id);
  const timestamp = header(headers, WEBHOOK_HEADERS.timestamp);
  const signatures = header(headers, WEBHOOK_HEADERS.signature);
  if (!id || !timestamp || !signatures)
    return fail('missing_headers', 'webhook-id, webhook-timestamp and webhook-signature are required');

  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  if (key.length === 0) return fail('invalid_secret', 'The secret is not whsec_ followed by base64');

  const seconds = Number(timestamp);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (!/^\d+$/.test(timestamp) || Math.abs(now - seconds) > (options.toleranceSeconds ?? 300))
    return fail('stale_timestamp', 'webhook-timestamp is missing, malformed or too far from now');

  const body = typeof payload === 'string' ? payload : Buffer.from(payload).toString('utf8');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) return fail('invalid_signature', 'No signature matches this secret');

  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return fail('invalid_payload', 'The body is not JSON');
  }
  const parsed = WebhookEventSchema.safeParse(json);
  if (!parsed.success)
    return fail('invalid_payload', `The body is not a known event: ${parsed.error.issues[0]?.message ?? ''}`);
  return { ok: true, event: parsed.data, id };
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : value;
}
