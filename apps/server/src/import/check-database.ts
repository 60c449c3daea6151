import { sql } from 'kysely';
import type { FieldProblem } from '../errors/domain-errors.js';
import type { VenueData } from './venue-data.schema.js';
import { anyText, anyUuid } from '../db/any-of.js';
import type { Trx } from './upsert.js';

/** An entity of the file, the parent it names (a foreign key it may not change), and its JSON path. */
interface Placement {
  id: string;
  parentId: string;
  path: string;
}

/** A row of the file whose unique value (a slug within its organisation, an email, an external id) may be taken. */
interface Claim {
  id: string;
  /** The scope the value is unique in (an organisation, a venue), or null when it is unique everywhere. */
  scope: string | null;
  value: string;
  path: string;
}

/**
 * What only the database can tell on a re-import: a slug, email or external_id already held by another
 * id, an id that would move to another parent, or a row the file drops that other data still needs.
 * Reported with paths like the file's own problems, instead of failing on a constraint mid-import.
 */
export async function checkAgainstDatabase(trx: Trx, data: VenueData): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  const report = (path: string, message: string) => problems.push({ path, message: `${path}: ${message}` });
  const venues = data.venues.map((venue, i) => ({ venue, at: `venues[${i}]` }));
  const treatments = venues.flatMap(({ venue, at }) =>
    venue.treatments.map((treatment, i) => ({ treatment, venue, at: `${at}.treatments[${i}]` })),
  );

  const moves: { table: MovableTable; label: string; entries: Placement[] }[] = [
    {
      table: 'venues',
      label: 'organisation',
      entries: venues.map(({ venue, at }) => ({
        id: venue.id,
        parentId: venue.organisation_id,
        path: `${at}.organisation_id`,
      })),
    },
    {
      table: 'api_keys',
      label: 'organisation',
      entries: data.api_keys.map((k, i) => ({
        id: k.id,
        parentId: k.organisation_id,
        path: `api_keys[${i}].organisation_id`,
      })),
    },
    {
      table: 'therapists',
      label: 'organisation',
      entries: data.therapists.map((t, i) => ({
        id: t.id,
        parentId: t.organisation_id,
        path: `therapists[${i}].organisation_id`,
      })),
    },
    {
      table: 'customers',
      label: 'organisation',
      entries: data.customers.map((c, i) => ({
        id: c.id,
        parentId: c.organisation_id,
        path: `customers[${i}].organisation_id`,
      })),
    },
    {
      table: 'rooms',
      label: 'venue',
      entries: venues.flatMap(({ venue, at }) =>
        venue.rooms.map((r, i) => ({ id: r.id, parentId: venue.id, path: `${at}.rooms[${i}].id` })),
      ),
    },
    {
      table: 'venue_blocks',
      label: 'venue',
      entries: venues.flatMap(({ venue, at }) =>
        venue.blocks.map((b, i) => ({ id: b.id, parentId: venue.id, path: `${at}.blocks[${i}].id` })),
      ),
    },
    {
      table: 'treatments',
      label: 'venue',
      entries: treatments.map(({ treatment, venue, at }) => ({
        id: treatment.id,
        parentId: venue.id,
        path: `${at}.id`,
      })),
    },
    {
      table: 'variants',
      label: 'treatment',
      entries: treatments.flatMap(({ treatment, at }) =>
        treatment.variants.map((x, i) => ({ id: x.id, parentId: treatment.id, path: `${at}.variants[${i}].id` })),
      ),
    },
    {
      table: 'bookings',
      label: 'venue',
      entries: data.bookings.map((b, i) => ({ id: b.id, parentId: b.venue_id, path: `bookings[${i}].venue_id` })),
    },
  ];
  for (const { table, label, entries } of moves) {
    const stored = await parentsOf(
      trx,
      table,
      entries.map((e) => e.id),
    );
    for (const { id, parentId, path } of entries) {
      const storedParent = stored.get(id);
      if (storedParent && storedParent !== parentId)
        report(path, `${id} belongs to ${label} ${storedParent} in the database; an import cannot move it`);
    }
  }

  const taken = (holders: Map<string, string>, claims: Claim[], what: string) => {
    for (const { id, scope, value, path } of claims) {
      const holder = holders.get(claimKey(scope, value));
      if (holder && holder !== id)
        report(path, `${what} is already used by ${holder} in the database; give this entry that id, or change it`);
    }
  };
  const organisationSlugs = data.organisations.map((o, i) => ({
    id: o.id,
    scope: null,
    value: o.slug,
    path: `organisations[${i}].slug`,
  }));
  taken(await holdersOf(trx, 'organisations', organisationSlugs), organisationSlugs, 'this slug');
  const venueSlugs = venues.map(({ venue, at }) => ({
    id: venue.id,
    scope: venue.organisation_id,
    value: venue.slug,
    path: `${at}.slug`,
  }));
  taken(await holdersOf(trx, 'venues', venueSlugs), venueSlugs, 'this slug');
  // Customers booked through the API are found by email, so the file must use their id to describe them.
  const emails = data.customers.map((c, i) => ({
    id: c.id,
    scope: c.organisation_id,
    value: c.email.toLowerCase(),
    path: `customers[${i}].email`,
  }));
  taken(await holdersOf(trx, 'customers', emails), emails, 'this email');
  const externalIds = data.bookings.flatMap((b, i) =>
    b.external_id ? [{ id: b.id, scope: b.venue_id, value: b.external_id, path: `bookings[${i}].external_id` }] : [],
  );
  taken(await holdersOf(trx, 'bookings', externalIds), externalIds, 'this external_id');

  await checkDroppedRows(trx, data, report);
  await checkDashboardKeys(trx, data, report);
  return problems;
}

const claimKey = (scope: string | null, value: string) => JSON.stringify([scope, value]);

/** The stored holder (id) of each claimed value, keyed by claimKey: one query per unique column. */
async function holdersOf(
  trx: Trx,
  table: 'organisations' | 'venues' | 'customers' | 'bookings',
  claims: Claim[],
): Promise<Map<string, string>> {
  if (claims.length === 0) return new Map();
  const values = [...new Set(claims.map((c) => c.value))];
  const rows = await (() => {
    switch (table) {
      case 'organisations':
        return trx
          .selectFrom('organisations')
          .select(['id', sql<null>`null`.as('scope'), 'slug as value'])
          .where('slug', '=', anyText(values))
          .execute();
      case 'venues':
        return trx
          .selectFrom('venues')
          .select(['id', 'organisation_id as scope', 'slug as value'])
          .where('slug', '=', anyText(values))
          .execute();
      case 'customers':
        return trx
          .selectFrom('customers')
          .select(['id', 'organisation_id as scope', sql<string>`lower(email)`.as('value')])
          .where(sql<string>`lower(email)`, '=', anyText(values))
          .execute();
      case 'bookings':
        return trx
          .selectFrom('bookings')
          .select(['id', 'venue_id as scope', sql<string>`external_id`.as('value')])
          .where('external_id', '=', anyText(values))
          .execute();
    }
  })();
  return new Map(rows.map((r) => [claimKey(r.scope, r.value), r.id]));
}

/** A second active dashboard key would break the one-per-organisation rule; the import never revokes one silently. */
async function checkDashboardKeys(
  trx: Trx,
  data: VenueData,
  report: (path: string, message: string) => void,
): Promise<void> {
  const fileKeys = new Set(data.api_keys.map((k) => k.id));
  const active = data.api_keys.flatMap((k, i) =>
    k.kind === 'dashboard' && !k.revoked ? [[k, `api_keys[${i}]`] as const] : [],
  );
  if (active.length === 0) return;
  const rows = await trx
    .selectFrom('api_keys')
    .select(['id', 'organisation_id', 'kind', 'revoked_at'])
    .where((eb) =>
      eb.or([
        eb(
          'id',
          'in',
          active.map(([k]) => k.id),
        ),
        eb.and([eb('kind', '=', 'dashboard'), eb('revoked_at', 'is', null)]),
      ]),
    )
    .execute();
  const revokedInDb = new Set(rows.filter((r) => r.revoked_at).map((r) => r.id));
  for (const [key, at] of active) {
    if (revokedInDb.has(key.id)) continue; // it stays revoked (upsert-keys.ts), so it competes with nobody
    const other = rows.find(
      (r) =>
        r.kind === 'dashboard' && !r.revoked_at && r.organisation_id === key.organisation_id && !fileKeys.has(r.id),
    );
    if (other)
      report(
        at,
        `the organisation already has the active dashboard key ${other.id} in the database; list it in the file with revoked: true, or revoke it (pnpm spa keys revoke ${other.id})`,
      );
  }
}

/** Rooms, treatments and variants the file drops are deleted; bookings outside the file may still need them. */
async function checkDroppedRows(
  trx: Trx,
  data: VenueData,
  report: (path: string, message: string) => void,
): Promise<void> {
  const fileBookings = data.bookings.map((b) => b.id);
  const outside = fileBookings.length ? sql`and not (b.id = any(${fileBookings}::uuid[]))` : sql``;
  for (const [v, venue] of data.venues.entries()) {
    const rooms = venue.rooms.map((r) => r.id);
    const variants = venue.treatments.flatMap((t) => t.variants.map((x) => x.id));
    const { rows: heldRooms } = await sql<{ room_id: string; booking_id: string }>`
      select r.room_id::text, r.booking_id::text from room_reservations r join bookings b on b.id = r.booking_id
      join rooms on rooms.id = r.room_id
      where rooms.venue_id = ${venue.id} ${rooms.length ? sql`and not (r.room_id = any(${rooms}::uuid[]))` : sql``} ${outside}`.execute(
      trx,
    );
    for (const held of heldRooms)
      report(
        `venues[${v}].rooms`,
        `room ${held.room_id} is not in the file but holds live booking ${held.booking_id}; keep the room or end that booking first`,
      );
    const { rows: used } = await sql<{ variant_id: string; booking_id: string }>`
      select b.variant_id::text, min(b.id::text) as booking_id from bookings b
      where b.venue_id = ${venue.id} ${variants.length ? sql`and not (b.variant_id = any(${variants}::uuid[]))` : sql``} ${outside}
      group by b.variant_id`.execute(trx);
    for (const u of used)
      report(
        `venues[${v}].treatments`,
        `variant ${u.variant_id} is not in the file but booking ${u.booking_id} uses it; bookings keep their treatment and variant`,
      );
  }
}

type MovableTable =
  | 'venues'
  | 'api_keys'
  | 'therapists'
  | 'customers'
  | 'rooms'
  | 'venue_blocks'
  | 'treatments'
  | 'variants'
  | 'bookings';

/** The stored parent id of each of these ids (the column each table's rows may not change on re-import). */
async function parentsOf(trx: Trx, table: MovableTable, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await (() => {
    switch (table) {
      case 'venues':
      case 'api_keys':
      case 'therapists':
      case 'customers':
        return trx
          .selectFrom(table)
          .select(['id', 'organisation_id as parent'])
          .where('id', '=', table === 'api_keys' ? anyText(ids) : anyUuid(ids))
          .execute();
      case 'rooms':
      case 'venue_blocks':
      case 'treatments':
      case 'bookings':
        return trx.selectFrom(table).select(['id', 'venue_id as parent']).where('id', '=', anyUuid(ids)).execute();
      case 'variants':
        return trx
          .selectFrom('variants')
          .select(['id', 'treatment_id as parent'])
          .where('id', '=', anyUuid(ids))
          .execute();
    }
  })();
  return new Map(rows.map((r) => [r.id, r.parent]));
}
