import type { Db } from '../db/connect.js';

export async function findApiKey(db: Db, id: string) {
  return db
    .selectFrom('api_keys')
    .select([
      'id',
      'organisation_id',
      'venue_id',
      'scopes',
      'rate_limit_per_min',
      'secret_hmac',
      'revoked_at',
      'livemode',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

export type ApiKeyRow = NonNullable<Awaited<ReturnType<typeof findApiKey>>>;
