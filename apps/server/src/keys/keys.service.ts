import { type Scope, SCOPES } from '@spa/contract';
import type { Temporal } from 'temporal-polyfill';
import { formatApiKey, generateKeyParts, type KeyVault } from '../auth/api-key.js';
import type { Db } from '../db/connect.js';
import { isoFromDb } from '../shared/instant.js';

/** A refusal the operator reads in the CLI. */
export class OperatorError extends Error {}

/** Partners get the four released scopes unless the operator grants more. */
export const DEFAULT_SCOPES: Scope[] = ['venues:read', 'treatments:read', 'customers:read', 'bookings:read'];

export function parseScopes(list: string | undefined): Scope[] {
  if (!list) return DEFAULT_SCOPES;
  const scopes = list.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw new OperatorError(`Unknown scope ${unknown.join(', ')}; known scopes: ${SCOPES.join(', ')}`);
  return scopes as Scope[];
}

async function organisationBySlug(db: Db, slug: string) {
  const org = await db.selectFrom('organisations').select(['id', 'slug']).where('slug', '=', slug).executeTakeFirst();
  if (!org) throw new OperatorError(`No organisation with slug ${slug}`);
  return org;
}

/** An operator-provisioned key (venue-restricted or with other scopes); there may be many. */
export async function createKey(
  db: Db,
  vault: KeyVault,
  input: { orgSlug: string; venueSlug?: string | undefined; scopes?: Scope[]; rateLimitPerMin?: number | undefined },
) {
  const org = await organisationBySlug(db, input.orgSlug);
  let venueId: string | null = null;
  if (input.venueSlug) {
    const venue = await db.selectFrom('venues').select('id').where('organisation_id', '=', org.id).where('slug', '=', input.venueSlug).executeTakeFirst();
    if (!venue) throw new OperatorError(`No venue ${input.venueSlug} in organisation ${org.slug}`);
    venueId = venue.id;
  }
  return issueKey(db, vault, {
    organisationId: org.id,
    venueId,
    kind: 'operator',
    scopes: input.scopes ?? DEFAULT_SCOPES,
    rateLimitPerMin: input.rateLimitPerMin ?? null,
  });
}

export async function listKeys(db: Db, orgSlug: string) {
  const org = await organisationBySlug(db, orgSlug);
  const rows = await db
    .selectFrom('api_keys')
    .leftJoin('venues', 'venues.id', 'api_keys.venue_id')
    .select(['api_keys.id', 'api_keys.kind', 'venues.slug as venue', 'api_keys.scopes', 'api_keys.rate_limit_per_min', 'api_keys.created_at', 'api_keys.revoked_at'])
    .where('api_keys.organisation_id', '=', org.id)
    .orderBy('api_keys.created_at')
    .orderBy('api_keys.id')
    .execute();
  return rows.map((r) => ({ ...r, created_at: isoFromDb(r.created_at), revoked_at: r.revoked_at ? isoFromDb(r.revoked_at) : null }));
}

/** Spec 5.5: the full value can be revealed again later. */
export async function revealKey(db: Db, vault: KeyVault, keyId: string) {
  const row = await db.selectFrom('api_keys').select(['id', 'secret_encrypted', 'revoked_at']).where('id', '=', keyId).executeTakeFirst();
  if (!row) throw new OperatorError(`No key ${keyId}`);
  return { key: formatApiKey({ id: row.id, secret: vault.decrypt(row.secret_encrypted, row.id) }), revoked: row.revoked_at !== null };
}

/** Spec 5.5: regenerating revokes the current dashboard key at once and issues a new one, in one transaction. */
export async function regenerateDashboardKey(db: Db, vault: KeyVault, orgSlug: string, now: Temporal.Instant) {
  const org = await organisationBySlug(db, orgSlug);
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .updateTable('api_keys')
      .set({ revoked_at: now.toString() })
      .where('organisation_id', '=', org.id)
      .where('kind', '=', 'dashboard')
      .where('revoked_at', 'is', null)
      .returning(['id', 'scopes'])
      .executeTakeFirst();
    const issued = await issueKey(trx, vault, {
      organisationId: org.id,
      venueId: null,
      kind: 'dashboard',
      scopes: (current?.scopes as Scope[] | undefined) ?? DEFAULT_SCOPES,
      rateLimitPerMin: null,
    });
    return { ...issued, revokedId: current?.id ?? null };
  });
}

export async function revokeKey(db: Db, keyId: string, now: Temporal.Instant) {
  const row = await db.selectFrom('api_keys').select(['id', 'revoked_at']).where('id', '=', keyId).executeTakeFirst();
  if (!row) throw new OperatorError(`No key ${keyId}`);
  if (row.revoked_at) throw new OperatorError(`Key ${keyId} is already revoked`);
  await db.updateTable('api_keys').set({ revoked_at: now.toString() }).where('id', '=', keyId).execute();
}

/** A new random key, stored as an HMAC (verification) and AES-GCM ciphertext (reveal); the full value is returned once. */
async function issueKey(
  db: Db,
  vault: KeyVault,
  key: { organisationId: string; venueId: string | null; kind: 'dashboard' | 'operator'; scopes: Scope[]; rateLimitPerMin: number | null },
) {
  const parts = generateKeyParts();
  await db
    .insertInto('api_keys')
    .values({
      id: parts.id,
      organisation_id: key.organisationId,
      venue_id: key.venueId,
      kind: key.kind,
      scopes: key.scopes,
      rate_limit_per_min: key.rateLimitPerMin,
      secret_hmac: vault.hmac(parts.secret),
      secret_encrypted: vault.encrypt(parts.secret, parts.id),
    })
    .execute();
  return { id: parts.id, key: formatApiKey(parts) };
}
