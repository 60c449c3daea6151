import { isUuid } from '@spa/contract';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/connect.js';
import { ForbiddenError, VenueNotFoundError } from '../errors/domain-errors.js';
import { findVenue, findVenueWithVariant, type VenueKey, type VenueRow } from './venues.repository.js';

/**
 * Resolves `{venue_id}` (UUID or slug) for a caller, per docs/api.md ("Authentication and keys"): a UUID of another organisation or
 * outside a venue-restricted key is 403 Forbidden; a slug is looked up in the caller's organisation only,
 * so an unknown slug is 404; a venue that is not active is 404.
 */
export async function resolveVenue(db: Db, principal: Principal, ref: string): Promise<VenueRow> {
  return checked(principal, await findVenue(db, venueKey(principal, ref)));
}

/** Where a venue row may come from without a round trip: the availability cache (availability-cache.ts). */
export interface VenueRowCache {
  heldVenueRow<T>(key: string, since?: number): Promise<T | undefined>;
  venueRow<T extends { id: string }>(
    key: string,
    load: () => Promise<T | undefined>,
    since?: number,
  ): Promise<T | undefined>;
}

type VenueVariantRow = NonNullable<Awaited<ReturnType<typeof findVenueWithVariant>>>;
type VenueAndVariant = { venue: Omit<VenueVariantRow, 'variant'>; variant: VenueVariantRow['variant'] };

/** Per row, the venue and its variant apart: a row the cache holds is split once, not on every request. */
const parts = new WeakMap<VenueVariantRow, VenueAndVariant>();

function partsOf(row: VenueVariantRow): VenueAndVariant {
  let split = parts.get(row);
  if (!split) {
    const { variant, ...venue } = row;
    parts.set(row, (split = Object.freeze({ venue: Object.freeze(venue), variant })));
  }
  return split;
}

/**
 * resolveVenue, and the variant of that venue (null when it has none such), read in the same round trip, or from
 * `cache`. The access checks run on every call, cached row or not: the row is the venue's, not the caller's.
 */
export async function resolveVenueVariant(
  db: Db,
  principal: Principal,
  ref: string,
  variantId: string,
  cache?: VenueRowCache,
  since?: number,
) {
  const key = venueKey(principal, ref);
  const id = variantId.toLowerCase();
  if (!cache) return partsOf(checked(principal, await findVenueWithVariant(db, key, id)));
  const cacheKey = 'id' in key ? `${key.id}|${id}` : `${key.organisationId}/${key.slug}|${id}`;
  const row =
    (await cache.heldVenueRow<VenueVariantRow>(cacheKey, since)) ??
    (await cache.venueRow(cacheKey, () => findVenueWithVariant(db, key, id), since));
  return partsOf(checked(principal, row));
}

function venueKey(principal: Principal, ref: string): VenueKey {
  return isUuid(ref) ? { id: ref.toLowerCase() } : { organisationId: principal.organisationId, slug: ref };
}

function checked<V extends { id: string; organisation_id: string; status: string }>(
  principal: Principal,
  venue: V | undefined,
): V {
  if (!venue) throw new VenueNotFoundError();
  assertVenueAccess(principal, venue);
  if (venue.status !== 'active') throw new VenueNotFoundError();
  return venue;
}

/** The organisation boundary and a venue-restricted key's one venue. */
export function canAccessVenue(principal: Principal, venue: { id: string; organisation_id: string }): boolean {
  return (
    venue.organisation_id === principal.organisationId && (principal.venueId === null || principal.venueId === venue.id)
  );
}

export function assertVenueAccess(principal: Principal, venue: { id: string; organisation_id: string }): void {
  if (!canAccessVenue(principal, venue)) throw new ForbiddenError();
}
