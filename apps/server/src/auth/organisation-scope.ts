import type { Principal } from './principal.js';

/**
 * What a dashboard person or a partner key may see: one organisation, and within it every venue (`venueIds` null, an admin) or only
 * the listed ones (a desk person, a venue-restricted key). Every query of a list or a lookup is narrowed by it, so a record outside it reads as absent.
 */
export interface OrganisationScope {
  organisationId: string;
  venueIds: readonly string[] | null;
}

/** What a partner key may see: its organisation, and its one venue when it is venue-restricted. */
export function scopeOfPrincipal(principal: Principal): OrganisationScope {
  return {
    organisationId: principal.organisationId,
    venueIds: principal.venueId === null ? null : [principal.venueId],
  };
}
