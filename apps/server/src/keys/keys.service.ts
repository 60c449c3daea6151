import { type Scope, SCOPES } from '@spa/contract';
import { Temporal } from 'temporal-polyfill';
import { formatApiKey, generateKeyParts, type KeyVault } from '../auth/api-key.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import type { Db } from '../db/connect.js';
import { OperatorError } from '../errors/operator-error.js';
import { isoFromDb } from '../lib/instant.js';
import { MAX_RATE_LIMIT } from '../lib/limits.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import * as repo from './keys.repository.js';
import { findVenue } from '../venues/venues.repository.js';

/** Partners get the four released scopes unless the operator grants more (docs/api.md, "Authentication and keys"). */
export const DEFAULT_SCOPES: Scope[] = ['venues:read', 'treatments:read', 'customers:read', 'bookings:read'];

export interface IssuedKey {
  id: string;
  /** The full `sk_live_…` or `sk_test_…` value: shown once here, and again only by revealKey. */
  key: string;
  scopes: Scope[];
  livemode: boolean;
}

export interface CreateKeyInput {
  orgSlug: string;
  venueSlug?: string | undefined;
  scopes?: readonly string[] | undefined;
  rateLimitPerMin?: number | undefined;
  kind?: 'dashboard' | 'operator';
  /** False for a test key (`sk_test_`); live by default. */
  livemode?: boolean | undefined;
}

/** `--scopes a,b` as scopes; unknown names are refused with the list of known ones. */
export function parseScopes(list: string | undefined): Scope[] {
  return list === undefined
    ? DEFAULT_SCOPES
    : checkScopes(
        list
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      );
}

/** An operator-provisioned key (venue-restricted or with other scopes; there may be many), or a first dashboard key. */
export async function createKey(db: Db, vault: KeyVault, input: CreateKeyInput): Promise<IssuedKey> {
  const kind = input.kind ?? 'operator';
  const livemode = input.livemode ?? true;
  const scopes = input.scopes === undefined ? DEFAULT_SCOPES : checkScopes(input.scopes);
  const rateLimit = input.rateLimitPerMin ?? null;
  if (rateLimit !== null && (!Number.isInteger(rateLimit) || rateLimit < 1 || rateLimit > MAX_RATE_LIMIT)) {
    throw new OperatorError(
      `The rate limit must be a whole number of requests per minute from 1 to ${MAX_RATE_LIMIT}, not ${rateLimit}`,
    );
  }
  const org = await organisation(db, input.orgSlug);
  let venueId: string | null = null;
  if (input.venueSlug !== undefined) {
    if (input.venueSlug.trim() === '')
      throw new OperatorError('--venue needs the slug of a venue; leave it out for a key to every venue');
    if (kind === 'dashboard')
      throw new OperatorError(
        'A dashboard key covers every venue of its organisation; it cannot be restricted to a venue',
      );
    const venue = await findVenue(db, { organisationId: org.id, slug: input.venueSlug });
    if (!venue) throw new OperatorError(`No venue ${input.venueSlug} in organisation ${org.slug}`);
    venueId = venue.id;
  }
  const dashboardTaken = () =>
    new OperatorError(
      `Organisation ${org.slug} already has an active ${livemode ? 'live' : 'test'} dashboard key; use \`keys regenerate --org ${org.slug}${livemode ? '' : ' --mode test'}\` to replace it`,
    );
  if (kind === 'dashboard' && (await repo.findActiveDashboardKey(db, org.id, livemode))) throw dashboardTaken();
  try {
    return await issueKey(db, vault, {
      organisationId: org.id,
      venueId,
      kind,
      scopes,
      rateLimitPerMin: rateLimit,
      livemode,
    });
  } catch (error) {
    if (isUniqueViolation(error, 'api_keys_one_active_dashboard')) throw dashboardTaken();
    throw error;
  }
}

/** Every key of the organisation, active or revoked, without secrets. */
export async function listKeys(db: Db, orgSlug: string) {
  const org = await organisation(db, orgSlug);
  const rows = await repo.listKeysOfOrganisation(db, org.id);
  return rows.map((r) => ({
    ...r,
    created_at: isoFromDb(r.created_at),
    revoked_at: r.revoked_at ? isoFromDb(r.revoked_at) : null,
  }));
}

/**
 * The full value can be revealed again later (decrypted with the server's KEY_ENCRYPTION_KEY). With an audit
 * trail, revealing an active key is recorded (`key.revealed`); a revoked key reveals nothing worth recording.
 */
export async function revealKey(
  db: Db,
  vault: KeyVault,
  keyId: string,
  options: { audit?: AuditTrail } = {},
): Promise<{ key: string; revoked: boolean }> {
  const row = await repo.findKey(db, keyId);
  if (!row) throw new OperatorError(`No key ${keyId}`);
  let secret: string;
  try {
    secret = vault.decrypt(row.secret_encrypted, row.id);
  } catch {
    throw new OperatorError(
      `Key ${keyId} cannot be decrypted: it was stored under another KEY_ENCRYPTION_KEY than this one`,
    );
  }
  const revoked = row.revoked_at !== null;
  const { audit } = options;
  if (audit && !revoked)
    await db.transaction().execute((trx) =>
      audit.record(trx, {
        organisationId: row.organisation_id,
        action: 'key.revealed',
        target: { type: 'api_key', id: row.id },
      }),
    );
  return { key: formatApiKey({ id: row.id, secret, livemode: row.livemode }), revoked };
}

/** The organisation's active dashboard key of one mode without its secret, or undefined when it has none. */
export async function dashboardKeyOf(db: Db, organisationId: string, livemode = true) {
  const row = await repo.findActiveDashboardKey(db, organisationId, livemode);
  return row && { ...row, scopes: row.scopes as Scope[], created_at: isoFromDb(row.created_at) };
}

/** One key without its secret (a key just issued, say). */
export async function describeKey(db: Db, keyId: string) {
  const row = await repo.findKeyDescription(db, keyId);
  return { ...row, scopes: row.scopes as Scope[], created_at: isoFromDb(row.created_at) };
}

/**
 * Revokes the organisation's dashboard key and issues its replacement (same scopes and rate limit)
 * in one transaction, so there is never a moment with two active dashboard keys or with a half-done swap.
 * The old key's row change is notified to every process (migration 0004), so it answers 401 everywhere at once.
 */
export async function regenerateDashboardKey(
  db: Db,
  vault: KeyVault,
  orgSlug: string,
  options: RegenerateOptions = {},
): Promise<RegeneratedKey> {
  const org = await organisation(db, orgSlug);
  return regenerateDashboardKeyOf(db, vault, org.id, options);
}

export interface RegenerateOptions {
  now?: Temporal.Instant;
  /** Records `key.regenerated` in the swap's transaction. */
  audit?: AuditTrail;
  /** The mode of the dashboard key to replace; live by default. */
  livemode?: boolean | undefined;
  /**
   * The key the caller means to replace (the one it was shown): when another regeneration replaced it first, the
   * swap changes nothing and KeyAlreadyReplacedError says so, instead of replacing the newcomer's key too.
   */
  replacing?: string | undefined;
}

/** The key a regeneration meant to replace was replaced by someone else first (409 in the dashboard). */
export class KeyAlreadyReplacedError extends OperatorError {
  override readonly status = 409;
  constructor() {
    super('This key was regenerated by someone else a moment ago; reload the page to see the new key.');
  }
}

export type RegeneratedKey = IssuedKey & { revokedId: string | null };

/** regenerateDashboardKey for an organisation known by id (the dashboard's signed-in organisation). */
export async function regenerateDashboardKeyOf(
  db: Db,
  vault: KeyVault,
  organisationId: string,
  options: RegenerateOptions = {},
): Promise<RegeneratedKey> {
  const now = options.now ?? Temporal.Now.instant();
  const livemode = options.livemode ?? true;
  return db.transaction().execute(async (trx) => {
    await repo.lockOrganisation(trx, organisationId);
    const previous = await repo.revokeActiveDashboardKey(
      trx,
      organisationId,
      livemode,
      now.toString(),
      options.replacing,
    );
    if (options.replacing !== undefined && !previous) throw new KeyAlreadyReplacedError();
    const issued = await issueKey(trx, vault, {
      organisationId,
      venueId: null,
      kind: 'dashboard',
      scopes: previous ? (previous.scopes as Scope[]) : DEFAULT_SCOPES,
      rateLimitPerMin: previous?.rate_limit_per_min ?? null,
      livemode,
    });
    await options.audit?.record(trx, {
      organisationId,
      action: 'key.regenerated',
      target: { type: 'api_key', id: issued.id },
    });
    return { ...issued, revokedId: previous?.id ?? null };
  });
}

/** Revokes a key at once; its next request is a 401. */
export async function revokeKey(
  db: Db,
  keyId: string,
  now = Temporal.Now.instant(),
): Promise<{ id: string; kind: 'dashboard' | 'operator' }> {
  const row = await repo.findKey(db, keyId);
  if (!row) throw new OperatorError(`No key ${keyId}`);
  if (row.revoked_at || !(await repo.revokeActiveKey(db, keyId, now.toString())))
    throw new OperatorError(`Key ${keyId} is already revoked`);
  return { id: row.id, kind: row.kind };
}

async function organisation(db: Db, slug: string) {
  const org = await repo.findOrganisationBySlug(db, slug);
  if (!org) throw new OperatorError(`No organisation with slug ${slug}`);
  return org;
}

function checkScopes(scopes: readonly string[]): Scope[] {
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length)
    throw new OperatorError(
      `Unknown scope${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the scopes are ${SCOPES.join(', ')}`,
    );
  if (scopes.length === 0)
    throw new OperatorError(`A key needs at least one scope; the scopes are ${SCOPES.join(', ')}`);
  return [...new Set(scopes)] as Scope[];
}

type NewKey = Omit<repo.NewKeyRow, 'id' | 'secretHmac' | 'secretEncrypted'> & { scopes: Scope[] };

/**
 * A new random key, stored as an HMAC (verification) and AES-GCM ciphertext (reveal). With `ignoreTaken`, a
 * dashboard key whose organisation already has an active one of its mode is not issued (undefined).
 */
export async function issueKey(
  db: Db,
  vault: KeyVault,
  key: NewKey,
  options: { ignoreTaken: true },
): Promise<IssuedKey | undefined>;
export async function issueKey(db: Db, vault: KeyVault, key: NewKey): Promise<IssuedKey>;
export async function issueKey(
  db: Db,
  vault: KeyVault,
  key: NewKey,
  options: { ignoreTaken?: boolean } = {},
): Promise<IssuedKey | undefined> {
  const parts = generateKeyParts(key.livemode);
  const inserted = await repo.insertKey(
    db,
    {
      ...key,
      id: parts.id,
      secretHmac: vault.hmac(parts.secret),
      secretEncrypted: vault.encrypt(parts.secret, parts.id),
    },
    options,
  );
  if (!inserted) return undefined;
  return { id: parts.id, key: formatApiKey(parts), scopes: key.scopes, livemode: key.livemode };
}
