import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh secret: 256 random bits, base64url (43 characters). Session tokens, invitation and CSRF tokens. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the database keeps of a session or invitation token: its SHA-256. The token is random and 256 bits long,
 * so an unsalted fast hash is enough; a stolen table gives no usable cookie or invitation.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Compares two secrets in time independent of where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
