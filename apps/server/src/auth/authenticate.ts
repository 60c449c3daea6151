import type { RouteMetadata, Scope } from '@spa/contract';
import type { Request, RequestHandler } from 'express';
import { InsufficientScopeError, InvalidApiKeyError, MissingApiKeyError } from '../errors/domain-errors.js';
import type { ApiKeyLookup } from './api-key-cache.js';
import type { ApiKeyRow } from './api-keys.repository.js';
import { type KeyVault, parseApiKey } from './api-key.js';
import type { Principal } from './principal.js';

/** docs/api.md, "Authentication and keys": `Authorization: Bearer` wins over `X-Api-Key` when both are sent. */
export function presentedKey(req: Request): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1];
  return bearer ?? (req.get('x-api-key')?.trim() || undefined);
}

interface Caller {
  principal: Principal;
  /** What the request's log lines add. */
  logged: { key_id: string; organisation_id: string };
}

/**
 * Per key row, who it makes the caller. A row is never changed in place (the key cache replaces it on any change),
 * so while the cache holds a row each request with its key gets the same frozen principal, not a new one.
 */
const callers = new WeakMap<ApiKeyRow, Caller>();

function callerOf(row: ApiKeyRow): Caller {
  let caller = callers.get(row);
  if (!caller) {
    const principal: Principal = Object.freeze({
      keyId: row.id,
      organisationId: row.organisation_id,
      venueId: row.venue_id,
      scopes: new Set(row.scopes as Scope[]),
      rateLimitPerMin: row.rate_limit_per_min,
      livemode: row.livemode,
    });
    callers.set(row, (caller = { principal, logged: { key_id: row.id, organisation_id: row.organisation_id } }));
  }
  return caller;
}

/**
 * Authenticates the key and checks the scope the route declares in its contract metadata.
 * Runs before request validation, so a bad key is a 401 even when the request is also malformed.
 */
export function authenticate(keys: ApiKeyLookup, vault: KeyVault): RequestHandler {
  return async (req, res, next) => {
    try {
      const raw = presentedKey(req);
      if (!raw) throw new MissingApiKeyError();
      const parsed = parseApiKey(raw);
      if (!parsed) throw new InvalidApiKeyError();
      // An unknown id pays for the same lookup, HMAC and comparison as a wrong secret: no timing tells ids apart.
      let row = await keys.find(parsed.id);
      let verified = vault.verify(parsed.secret, row?.secret_hmac ?? vault.dummyHmac);
      if ((!row || row.revoked_at !== null || !verified) && keys.recheck) {
        // Every refusal, known id or not, looks again once earlier commits are known: a key just made elsewhere.
        row = await keys.recheck(parsed.id);
        verified = vault.verify(parsed.secret, row?.secret_hmac ?? vault.dummyHmac);
      }
      // A key of the other mode's prefix (sk_test_ for a live key) is not that key.
      if (!row || row.revoked_at !== null || !verified || row.livemode !== parsed.livemode)
        throw new InvalidApiKeyError();
      const { principal, logged } = callerOf(row);
      res.locals.principal = principal;
      req.log = req.log?.child(logged);

      const required = (req.tsRestRoute?.metadata as RouteMetadata | undefined)?.scope;
      if (required && !principal.scopes.has(required)) throw new InsufficientScopeError([required]);
      next();
    } catch (error) {
      next(error);
    }
  };
}
