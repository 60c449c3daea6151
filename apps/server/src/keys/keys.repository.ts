import type { Transaction } from 'kysely';
import type { Db } from '../db/connect.js';
import type { Database } from '../db/schema.js';

export interface NewKeyRow {
  id: string;
  organisationId: string;
  venueId: string | null;
  kind: 'dashboard' | 'operator';
  scopes: string[];
  rateLimitPerMin: number | null;
  secretHmac: string;
  secretEncrypted: string;
  livemode: boolean;
}

export function findOrganisationBySlug(db: Db, slug: string) {
  return db.selectFrom('organisations').select(['id', 'slug']).where('slug', '=', slug).executeTakeFirst();
}

/** Serialises dashboard regenerations of one organisation: the second waits and then replaces the first's key. */
export function lockOrganisation(trx: Transaction<Database>, organisationId: string) {
  return trx
    .selectFrom('organisations')
    .select('id')
    .where('id', '=', organisationId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export function findKey(db: Db, keyId: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'kind', 'organisation_id', 'secret_encrypted', 'revoked_at', 'livemode'])
    .where('id', '=', keyId)
    .executeTakeFirst();
}

/** Everything about an organisation's keys except their secrets. */
export function listKeysOfOrganisation(db: Db, organisationId: string) {
  return db
    .selectFrom('api_keys')
    .leftJoin('venues', 'venues.id', 'api_keys.venue_id')
    .select([
      'api_keys.id',
      'api_keys.kind',
      'api_keys.livemode',
      'venues.slug as venue',
      'api_keys.scopes',
      'api_keys.rate_limit_per_min',
      'api_keys.created_at',
      'api_keys.revoked_at',
    ])
    .where('api_keys.organisation_id', '=', organisationId)
    .orderBy('api_keys.created_at')
    .orderBy('api_keys.id')
    .execute();
}

/** Inserts the key; with `ignoreTaken`, nothing when its organisation's active dashboard key of its mode exists. */
export async function insertKey(db: Db, key: NewKeyRow, options: { ignoreTaken?: boolean } = {}): Promise<boolean> {
  const insert = db.insertInto('api_keys').values({
    id: key.id,
    organisation_id: key.organisationId,
    venue_id: key.venueId,
    kind: key.kind,
    scopes: key.scopes,
    rate_limit_per_min: key.rateLimitPerMin,
    secret_hmac: key.secretHmac,
    secret_encrypted: key.secretEncrypted,
    livemode: key.livemode,
  });
  const result = await (
    options.ignoreTaken
      ? insert.onConflict((oc) =>
          oc
            .columns(['organisation_id', 'livemode'])
            .where('kind', '=', 'dashboard')
            .where('revoked_at', 'is', null)
            .doNothing(),
        )
      : insert
  ).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 1n) > 0;
}

/** Revokes the key if it is active; undefined when it was not (unknown, or already revoked). */
export function revokeActiveKey(db: Db, keyId: string, now: string) {
  return db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
}

/**
 * Revokes the organisation's active dashboard key of one mode, returning what the new one inherits. With `keyId`,
 * only while that key is still the active one: a second regeneration of the same key, waiting on the first one's
 * row lock, then finds it revoked and changes nothing (undefined).
 */
export function revokeActiveDashboardKey(
  trx: Transaction<Database>,
  organisationId: string,
  livemode: boolean,
  now: string,
  keyId?: string,
) {
  let query = trx
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('organisation_id', '=', organisationId)
    .where('livemode', '=', livemode)
    .where('kind', '=', 'dashboard')
    .where('revoked_at', 'is', null);
  if (keyId !== undefined) query = query.where('id', '=', keyId);
  return query.returning(['id', 'scopes', 'rate_limit_per_min']).executeTakeFirst();
}

/** A key's description, without its secret. */
export function findKeyDescription(db: Db, keyId: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'scopes', 'rate_limit_per_min', 'created_at', 'livemode'])
    .where('id', '=', keyId)
    .executeTakeFirstOrThrow();
}

/** The organisation's active dashboard key of one mode, without its secret. */
export function findActiveDashboardKey(db: Db, organisationId: string, livemode: boolean) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'scopes', 'rate_limit_per_min', 'created_at', 'livemode'])
    .where('organisation_id', '=', organisationId)
    .where('livemode', '=', livemode)
    .where('kind', '=', 'dashboard')
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}
