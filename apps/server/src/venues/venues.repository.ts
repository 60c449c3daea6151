import { jsonObjectFrom } from 'kysely/helpers/postgres';
import { sql } from 'kysely';
import { compiledQuery } from '../db/compiled-query.js';
import type { Db } from '../db/connect.js';
import { venueVariant } from '../treatments/treatments.repository.js';
import { VENUE_DETAIL_FIELDS, VENUE_SUMMARY_FIELDS } from './venue-fields.js';

/** The list shape's fields (venue-fields.ts): the contract names the columns. */
const SUMMARY_COLUMNS = VENUE_SUMMARY_FIELDS;

/** The detail shape's fields, and the organisation (the key's boundary). */
const DETAIL_COLUMNS = [...VENUE_DETAIL_FIELDS, 'organisation_id'] as const;

export type VenueRow = NonNullable<Awaited<ReturnType<typeof findVenue>>>;

export interface VenueScope {
  organisationId: string;
  venueId: string | null;
}

interface VenuePage {
  organisationId: string;
  venueId: string;
  limit: number;
  offset: number;
}

/** Active venues of an organisation, or its one venue for a venue-restricted key. */
const activeVenues = (db: Db, p: VenuePage, oneVenue: boolean) => {
  const query = db.selectFrom('venues').where('organisation_id', '=', p.organisationId).where('status', '=', 'active');
  return oneVenue ? query.where('id', '=', p.venueId) : query;
};
const page = (db: Db, p: VenuePage, oneVenue: boolean) =>
  activeVenues(db, p, oneVenue)
    .select(SUMMARY_COLUMNS)
    // The total rides along on every row of the page (the window counts before LIMIT): one round trip, one snapshot.
    .select(sql<string>`count(*) over ()`.as('total_count'))
    .orderBy('name')
    .orderBy('id')
    .offset(p.offset)
    .limit(p.limit);
const count = (db: Db, p: VenuePage, oneVenue: boolean) =>
  activeVenues(db, p, oneVenue).select((eb) => eb.fn.countAll<number>().as('count'));
const venuesPage = {
  all: compiledQuery((db, p: VenuePage) => page(db, p, false)),
  one: compiledQuery((db, p: VenuePage) => page(db, p, true)),
};
const venuesCount = {
  all: compiledQuery((db, p: VenuePage) => count(db, p, false)),
  one: compiledQuery((db, p: VenuePage) => count(db, p, true)),
};

/** Active venues the key may see, ordered by name then id so pages are stable. */
export async function listVenues(db: Db, scope: VenueScope, window: { offset: number; limit: number }) {
  const which = scope.venueId ? 'one' : 'all';
  const p = { organisationId: scope.organisationId, venueId: scope.venueId ?? '', ...window };
  const rows = await venuesPage[which](db, p);
  if (rows.length > 0) return { rows, total: Number(rows[0]!.total_count) };
  if (window.offset === 0) return { rows, total: 0 };
  // A page past the end has no row to carry the total.
  const [total] = await venuesCount[which](db, p);
  return { rows, total: Number(total!.count) };
}

/** A venue by id, or by slug within an organisation (slugs are unique per organisation only). */
export type VenueKey = { id: string } | { organisationId: string; slug: string };

const selectVenue = (db: Db) => db.selectFrom('venues').select(DETAIL_COLUMNS);
const byId = (db: Db, p: { id: string }) => selectVenue(db).where('id', '=', p.id);
const bySlug = (db: Db, p: { organisationId: string; slug: string }) =>
  selectVenue(db).where('organisation_id', '=', p.organisationId).where('slug', '=', p.slug);
const venueById = compiledQuery(byId);
const venueBySlug = compiledQuery(bySlug);

export async function findVenue(db: Db, key: VenueKey) {
  const [row] = 'id' in key ? await venueById(db, key) : await venueBySlug(db, key);
  return row;
}

/** The variant (null when the venue has no such variant) beside the venue's columns. */
const withVariant = <Q extends ReturnType<typeof selectVenue>>(query: Q, variantId: string) =>
  query.select((eb) => jsonObjectFrom(venueVariant(eb, variantId)).as('variant'));
const venueWithVariantById = compiledQuery((db, p: { id: string; variantId: string }) =>
  withVariant(byId(db, p), p.variantId),
);
const venueWithVariantBySlug = compiledQuery((db, p: { organisationId: string; slug: string; variantId: string }) =>
  withVariant(bySlug(db, p), p.variantId),
);

/**
 * The venue and one variant bookable there (null when the venue has no such variant), in one round trip:
 * availability and booking requests name both, and each round trip costs more than this SQL.
 */
export async function findVenueWithVariant(db: Db, key: VenueKey, variantId: string) {
  const [row] =
    'id' in key
      ? await venueWithVariantById(db, { ...key, variantId })
      : await venueWithVariantBySlug(db, { ...key, variantId });
  return row;
}
