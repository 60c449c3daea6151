import { createHmac, randomBytes } from 'node:crypto';

/** `whsec_` + base64 of 32 random bytes (the Standard Webhooks secret format). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The HMAC key of a secret: the bytes after `whsec_`, base64-decoded. */
function keyOf(secret: string): Buffer {
  return Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
}

/**
 * `webhook-signature` of Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`, one per
 * secret, space-separated (two while a rotated secret overlaps). One HMAC, so node:crypto rather than a library.
 */
export function signWebhook(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`)
    .join(' ');
}
