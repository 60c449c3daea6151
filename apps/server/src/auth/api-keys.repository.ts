import type { Db } from '../db/connect.js';

const KEY_COLUMNS = [
  'id',
  'organisation_id',
  'venue_id',
  'scopes',
  'rate_limit_per_min',
  'secret_hmac',
  'revoked_at',
  'livemode',
] as const;

export async function findApiKey(db: Db, id: string) {
  return db.selectFrom('api_keys').select(KEY_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Every key that can authenticate, for the process's key cache. */
export async function findActiveApiKeys(db: Db) {
  return db.selectFrom('api_keys').select(KEY_COLUMNS).where('revoked_at', 'is', null).execute();
}

export type ApiKeyRow = NonNullable<Awaited<ReturnType<typeof findApiKey>>>;
