import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/**
 * `sk_live_{id}_{secret}` or `sk_test_{id}_{secret}`: id 12 lower-case hex characters, secret 64 (docs/api.md,
 * "Authentication and keys"). The prefix names the key's mode; the row's mode must agree.
 */
const KEY_FORMAT = /^sk_(live|test)_([0-9a-f]{12})_([0-9a-f]{64})$/;

export interface ParsedKey {
  id: string;
  secret: string;
  /** True for `sk_live_`, false for `sk_test_`. */
  livemode: boolean;
}

export function parseApiKey(raw: string): ParsedKey | undefined {
  const match = KEY_FORMAT.exec(raw);
  return match ? { livemode: match[1] === 'live', id: match[2]!, secret: match[3]! } : undefined;
}

export function formatApiKey({ id, secret, livemode }: ParsedKey): string {
  return `sk_${livemode ? 'live' : 'test'}_${id}_${secret}`;
}

export function generateKeyParts(livemode: boolean): ParsedKey {
  return { id: randomBytes(6).toString('hex'), secret: randomBytes(32).toString('hex'), livemode };
}

/** Stored HMACs whose verified secret a vault remembers, at most; past it the least recently used costs an HMAC again. */
const MAX_VERIFIED_SECRETS = 10_000;

/**
 * Two independent keys derived from the one server key: one to HMAC secrets for verification,
 * one to encrypt them for the administrator's "reveal".
 */
export class KeyVault {
  readonly #hmacKey: Buffer;
  readonly #aesKey: Buffer;
  /** Verified against when a key id is unknown, so that answer costs what a wrong secret costs. */
  readonly dummyHmac: string;
  /**
   * Per stored HMAC, the secret last verified against it (docs/decisions.md, "Warm availability path"): the check is
   * a pure function of the two, so a hit needs no invalidation; whether the key is still valid (revoked, replaced)
   * is the row's business, read as before.
   */
  readonly #verified = new LRUCache<string, Buffer>({ max: MAX_VERIFIED_SECRETS });
  /** Compared against when no secret is remembered, so a remembered HMAC and an unknown one cost the same. */
  readonly #noSecret = randomBytes(64);

  constructor(masterKey: Buffer) {
    this.#hmacKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'api-key-hmac', 32));
    this.#aesKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'api-key-encryption', 32));
    this.dummyHmac = this.hmac(randomBytes(32).toString('hex'));
  }

  hmac(secret: string): string {
    return createHmac('sha256', this.#hmacKey).update(secret).digest('hex');
  }

  /**
   * Constant-time comparison of a presented secret with the stored HMAC. A secret that verified against the same
   * HMAC before is compared (in constant time) with the one remembered instead of being HMACed again: on a warm
   * request the HMAC was the largest cost of authentication. A wrong secret always pays the HMAC.
   */
  verify(secret: string, storedHmac: string): boolean {
    const given = Buffer.from(secret);
    const remembered = this.#verified.get(storedHmac) ?? this.#noSecret;
    const same = remembered.length === given.length && timingSafeEqual(remembered, given);
    if (same && remembered !== this.#noSecret) return true;
    const presented = Buffer.from(this.hmac(secret), 'hex');
    const stored = Buffer.from(storedHmac, 'hex');
    const verified = presented.length === stored.length && timingSafeEqual(presented, stored);
    if (verified) this.#verified.set(storedHmac, given);
    return verified;
  }

  /** AES-256-GCM; the key id is bound as associated data so a ciphertext cannot be moved to another key row. */
  encrypt(secret: string, keyId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#aesKey, iv).setAAD(Buffer.from(keyId));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
  }

  decrypt(payload: string, keyId: string): string {
    const [version, iv, tag, body] = payload.split(':');
    if (version !== 'v1' || !iv || !tag || !body) throw new Error('Unknown key encryption format');
    const decipher = createDecipheriv('aes-256-gcm', this.#aesKey, Buffer.from(iv, 'base64')).setAAD(
      Buffer.from(keyId),
    );
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}
