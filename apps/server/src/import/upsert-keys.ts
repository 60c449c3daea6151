import type { KeyVault } from '../auth/api-key.js';
import { isoFromDb } from '../lib/instant.js';
import type { VenueData } from './venue-data.schema.js';
import type { Trx } from './upsert.js';

type FileKey = VenueData['api_keys'][number];

/**
 * API keys of the file: the secret is stored as an HMAC (verification) and encrypted (reveal), never in clear.
 * A key revoked in the database stays revoked whatever the file says: re-importing an old file must not bring
 * a leaked key back. Returns a notice per such key.
 */
export async function upsertApiKeys(
  trx: Trx,
  vault: KeyVault,
  keys: VenueData['api_keys'],
  now: string,
): Promise<string[]> {
  if (keys.length === 0) return [];
  const stored = new Map(
    (
      await trx
        .selectFrom('api_keys')
        .select(['id', 'revoked_at'])
        .where(
          'id',
          'in',
          keys.map((k) => k.id),
        )
        .execute()
    ).map((r) => [r.id, r.revoked_at]),
  );
  const notices: string[] = [];
  // Revocations before activations, so the one-active-dashboard-key index never sees two at once.
  const activeDashboard = (k: FileKey) => k.kind === 'dashboard' && !k.revoked;
  const ordered = [...keys.entries()].sort(([, a], [, b]) => Number(activeDashboard(a)) - Number(activeDashboard(b)));
  for (const [index, key] of ordered) {
    const revokedBefore = stored.get(key.id);
    if (!key.revoked && revokedBefore)
      notices.push(
        `api_keys[${index}]: key ${key.id} was revoked in the database (${isoFromDb(revokedBefore)}) and stays revoked`,
      );
    const revoked = key.revoked || Boolean(revokedBefore);
    const hmac = vault.hmac(key.secret);
    await trx
      .insertInto('api_keys')
      .values({
        id: key.id,
        organisation_id: key.organisation_id,
        venue_id: key.venue_id,
        kind: key.kind,
        scopes: key.scopes,
        rate_limit_per_min: key.rate_limit_per_min,
        secret_hmac: hmac,
        secret_encrypted: vault.encrypt(key.secret, key.id),
        revoked_at: revoked ? now : null,
        livemode: key.mode === 'live',
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          organisation_id: eb.ref('excluded.organisation_id'),
          venue_id: eb.ref('excluded.venue_id'),
          kind: eb.ref('excluded.kind'),
          scopes: eb.ref('excluded.scopes'),
          rate_limit_per_min: eb.ref('excluded.rate_limit_per_min'),
          livemode: eb.ref('excluded.livemode'),
          secret_hmac: eb.ref('excluded.secret_hmac'),
          // The ciphertext has a random IV: re-encrypt only when the secret changed, so a re-import changes nothing.
          secret_encrypted: eb
            .case()
            .when('api_keys.secret_hmac', '=', hmac)
            .then(eb.ref('api_keys.secret_encrypted'))
            .else(eb.ref('excluded.secret_encrypted'))
            .end(),
          // A key keeps its first revocation time.
          revoked_at: revoked ? eb.fn.coalesce('api_keys.revoked_at', eb.val(now)) : eb.val(null),
        })),
      )
      .execute();
  }
  return notices;
}
