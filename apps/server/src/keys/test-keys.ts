import type { Scope } from '@spa/contract';
import type { KeyVault } from '../auth/api-key.js';
import type { Db } from '../db/connect.js';
import { issueKey } from './keys.service.js';

/**
 * Every organisation with an active live dashboard key gets a test one beside it (same scopes and rate limit), as
 * Stripe gives every account both: organisations that existed before test mode, and those imported since the last
 * start. A migration cannot do it (it has no key-encryption key to store the secret with), so each server start runs
 * this; it issues nothing when every organisation has its test key (a revoked one counts: an admin's choice). Two processes racing meet the one-active-
 * dashboard-key index, and the loser's insert does nothing.
 */
export async function issueMissingTestKeys(db: Db, vault: KeyVault): Promise<string[]> {
  const missing = await db
    .selectFrom('api_keys as live')
    .select(['live.organisation_id', 'live.scopes', 'live.rate_limit_per_min'])
    .where('live.kind', '=', 'dashboard')
    .where('live.livemode', '=', true)
    .where('live.revoked_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('api_keys as test')
            .select('test.id')
            .whereRef('test.organisation_id', '=', 'live.organisation_id')
            .where('test.kind', '=', 'dashboard')
            .where('test.livemode', '=', false),
        ),
      ),
    )
    .execute();
  const issued: string[] = [];
  for (const row of missing) {
    const key = await issueKey(
      db,
      vault,
      {
        organisationId: row.organisation_id,
        venueId: null,
        kind: 'dashboard',
        scopes: row.scopes as Scope[],
        rateLimitPerMin: row.rate_limit_per_min,
        livemode: false,
      },
      { ignoreTaken: true },
    );
    if (key) issued.push(key.id);
  }
  return issued;
}
