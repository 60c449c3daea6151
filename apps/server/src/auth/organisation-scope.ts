import type { Principal } from './principal.js';

/**
 * Whose data a reader sees: one organisation, within it every venue (`venueIds` null: an admin, a key to every venue)
 * or only the listed ones (a desk person, a venue-restricted key), and one mode. Every query of partner data is
 * narrowed by it, so a record outside it (another organisation's, another venue's, the other mode's) reads as absent.
 * The mode is decided here once per caller (the key's prefix, the dashboard's mode) and never per query.
 */
export interface OrganisationScope {
  organisationId: string;
  venueIds: readonly string[] | null;
  /** True: live data only; false: test data only (docs/decisions.md, "Test mode"). */
  livemode: boolean;
}

/** The scope of a partner's key: its organisation, its one venue when restricted, its mode. */
export function scopeOfKey(principal: Principal): OrganisationScope {
  return {
    organisationId: principal.organisationId,
    venueIds: principal.venueId === null ? null : [principal.venueId],
    livemode: principal.livemode,
  };
}

/** Whether a row read by its id lies inside the scope (organisation, venue and mode). */
export function isInScope(
  scope: OrganisationScope,
  row: { organisation_id: string; venue_id: string; livemode: boolean },
): boolean {
  return (
    row.organisation_id === scope.organisationId &&
    row.livemode === scope.livemode &&
    (scope.venueIds === null || scope.venueIds.includes(row.venue_id))
  );
}
