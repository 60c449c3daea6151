/**
 * What a dashboard person may see: one organisation, and within it every venue (`venueIds` null, an admin) or only
 * the listed ones (a desk person). Every dashboard query is narrowed by it, so a record outside it reads as absent.
 */
export interface OrganisationScope {
  organisationId: string;
  venueIds: readonly string[] | null;
}

/** Whether a venue of the scope's organisation is one the scope may see. */
export function seesVenue(scope: OrganisationScope, venueId: string): boolean {
  return scope.venueIds === null || scope.venueIds.includes(venueId);
}
