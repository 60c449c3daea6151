import type { KeyVault } from '../auth/api-key.js';
import type { VenueData } from './venue-data.schema.js';
import type { Trx } from './upsert.js';

/**
 * API keys of the file: the secret is stored as an HMAC (verification) and encrypted (reveal), never in clear.
 * Dashboard keys are revoked before the upsert so the one-active-dashboard-key index sees a consistent state.
 */
export async function upsertApiKeys(trx: Trx, vault: KeyVault, keys: VenueData['api_keys'], now: string): Promise<void> {
  for (const key of keys) {
    if (key.kind === 'dashboard' && !key.revoked) {
      await trx
        .updateTable('api_keys')
        .set({ revoked_at: now })
        .where('organisation_id', '=', key.organisation_id)
        .where('kind', '=', 'dashboard')
        .where('revoked_at', 'is', null)
        .where('id', '!=', key.id)
        .execute();
    }
    const row = {
      id: key.id,
      organisation_id: key.organisation_id,
      venue_id: key.venue_id,
      kind: key.kind,
      scopes: key.scopes,
      rate_limit_per_min: key.rate_limit_per_min,
      secret_hmac: vault.hmac(key.secret),
      secret_encrypted: vault.encrypt(key.secret, key.id),
      revoked_at: key.revoked ? now : null,
    };
    await trx
      .insertInto('api_keys')
      .values(row)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({
          organisation_id: row.organisation_id,
          venue_id: row.venue_id,
          kind: row.kind,
          scopes: row.scopes,
          rate_limit_per_min: row.rate_limit_per_min,
          secret_hmac: row.secret_hmac,
          secret_encrypted: row.secret_encrypted,
          // A key revoked earlier stays revoked at its first revocation time.
          revoked_at: (eb) => (key.revoked ? eb.fn.coalesce('api_keys.revoked_at', eb.val(now)) : eb.val(null)),
        }),
      )
      .execute();
  }
}
