import { randomBytes } from 'node:crypto';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { ApiKeyRow } from '../../src/auth/api-keys.repository.js';
import { formatApiKey, generateKeyParts, KeyVault } from '../../src/auth/api-key.js';
import { authenticate } from '../../src/auth/authenticate.js';
import { errorMapper } from '../../src/http/error-mapper.js';
import { requestId } from '../../src/http/request-id.js';

/**
 * The vault remembers the secret last verified against each stored HMAC (src/auth/api-key.ts), so a warm request
 * skips the HMAC. Whether a key is accepted stays the row's decision, read as before: the remembered secret only
 * answers "does this secret match this HMAC".
 */
describe('secrets remembered by the key vault', () => {
  const vault = new KeyVault(randomBytes(32));

  it('accepts a remembered secret again and still refuses a wrong one, or the same one against another HMAC', () => {
    const { secret } = generateKeyParts(true);
    const stored = vault.hmac(secret);
    expect(vault.verify(secret, stored)).toBe(true);
    expect(vault.verify(secret, stored)).toBe(true);
    const wrong = secret.slice(0, -1) + (secret.endsWith('0') ? '1' : '0');
    expect(vault.verify(wrong, stored)).toBe(false);
    expect(vault.verify(secret.slice(1), stored)).toBe(false);
    // A regenerated key has a new HMAC: the old secret, remembered for the old one, does not match it.
    expect(vault.verify(secret, vault.hmac(generateKeyParts(true).secret))).toBe(false);
    expect(vault.verify(secret, vault.dummyHmac)).toBe(false);
    // The wrong secret was never remembered in place of the right one.
    expect(vault.verify(secret, stored)).toBe(true);
  });

  it('refuses a key the moment its row says revoked or replaced, after accepting it from memory', async () => {
    const parts = generateKeyParts(true);
    const key = formatApiKey(parts);
    const active: ApiKeyRow = {
      id: parts.id,
      organisation_id: 'org',
      venue_id: null,
      scopes: ['venues:read'],
      rate_limit_per_min: null,
      secret_hmac: vault.hmac(parts.secret),
      revoked_at: null,
      livemode: true,
    };
    // The row as the key cache hands it: whatever the database (or a change notice) last said.
    let row: ApiKeyRow | undefined = active;
    const app = express();
    app.use(requestId);
    app.get('/', authenticate({ find: () => Promise.resolve(row) }, vault), (_req, res) => void res.json({}));
    app.use(errorMapper);
    const status = async () => (await request(app).get('/').set('authorization', `Bearer ${key}`)).status;

    expect([await status(), await status()]).toEqual([200, 200]);
    row = { ...active, revoked_at: new Date().toISOString() };
    expect(await status()).toBe(401);
    row = { ...active, secret_hmac: vault.hmac(generateKeyParts(true).secret) };
    expect(await status()).toBe(401);
    row = undefined;
    expect(await status()).toBe(401);
    row = active;
    expect(await status()).toBe(200);
  });
});
