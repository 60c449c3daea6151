import { anyUuid } from '../db/any-of.js';
import type { Trx } from './upsert.js';
import type { VenueData } from './venue-data.schema.js';

/**
 * Entities the file names by id without containing them, as the database holds them: a file may add a venue
 * to an organisation, a therapist to a venue, or a booking for a customer that an earlier import (or the API)
 * created. Each carries what the cross-reference checks compare.
 */
export interface StoredReferences {
  organisations: Set<string>;
  venues: Map<string, { organisation_id: string }>;
  customers: Map<string, { organisation_id: string }>;
  therapists: Map<string, { organisation_id: string }>;
}

export const NO_STORED_REFERENCES: StoredReferences = {
  organisations: new Set(),
  venues: new Map(),
  customers: new Map(),
  therapists: new Map(),
};

/** Looks up every referenced id the file does not define; ids that are not UUIDs are left to the schema. */
export async function loadStoredReferences(trx: Trx, data: VenueData): Promise<StoredReferences> {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const outside = (defined: { id: string }[], referenced: string[]) => {
    const inFile = new Set(defined.map((e) => e.id));
    return [...new Set(referenced)].filter((id) => !inFile.has(id) && uuid.test(id));
  };
  const organisationIds = outside(data.organisations, [
    ...data.venues.map((v) => v.organisation_id),
    ...data.api_keys.map((k) => k.organisation_id),
    ...data.therapists.map((t) => t.organisation_id),
    ...data.customers.map((c) => c.organisation_id),
  ]);
  const venueIds = outside(data.venues, [
    ...data.api_keys.flatMap((k) => (k.venue_id ? [k.venue_id] : [])),
    ...data.therapists.flatMap((t) => [...t.shifts, ...t.shift_overrides].map((s) => s.venue_id)),
    ...data.bookings.map((b) => b.venue_id),
  ]);
  const customerIds = outside(
    data.customers,
    data.bookings.map((b) => b.customer_id),
  );
  const therapistIds = outside(
    data.therapists,
    data.bookings.flatMap((b) => b.therapist_ids),
  );
  const byOrganisation = async (table: 'venues' | 'customers' | 'therapists', ids: string[]) =>
    new Map(
      ids.length
        ? (await trx.selectFrom(table).select(['id', 'organisation_id']).where('id', '=', anyUuid(ids)).execute()).map(
            (r) => [r.id, { organisation_id: r.organisation_id }] as const,
          )
        : [],
    );
  const organisations = organisationIds.length
    ? await trx.selectFrom('organisations').select('id').where('id', '=', anyUuid(organisationIds)).execute()
    : [];
  return {
    organisations: new Set(organisations.map((o) => o.id)),
    venues: await byOrganisation('venues', venueIds),
    customers: await byOrganisation('customers', customerIds),
    therapists: await byOrganisation('therapists', therapistIds),
  };
}
