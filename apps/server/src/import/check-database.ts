import { sql } from 'kysely';
import type { FieldProblem } from '../errors/domain-errors.js';
import type { VenueData } from './venue-data.schema.js';
import type { Trx } from './upsert.js';

/** An entity of the file: its id, the value to compare (its parent id, or its unique key), its JSON path. */
type Entry = readonly [id: string, value: string, path: string];

/**
 * What only the database can tell on a re-import: a slug, email or external_id already held by another
 * id, an id that would move to another parent, or a row the file drops that other data still needs.
 * Reported with paths like the file's own problems, instead of failing on a constraint mid-import.
 */
export async function checkAgainstDatabase(trx: Trx, data: VenueData): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  const report = (path: string, message: string) => problems.push({ path, message: `${path}: ${message}` });
  const venues = data.venues.map((v, i) => [v, `venues[${i}]`] as const);
  const treatments = venues.flatMap(([v, at]) => v.treatments.map((t, i) => [t, `${at}.treatments[${i}]`, v] as const));

  const moves: [table: string, parent: string, label: string, entries: Entry[]][] = [
    [
      'venues',
      'organisation_id',
      'organisation',
      venues.map(([v, at]) => [v.id, v.organisation_id, `${at}.organisation_id`]),
    ],
    [
      'api_keys',
      'organisation_id',
      'organisation',
      data.api_keys.map((k, i) => [k.id, k.organisation_id, `api_keys[${i}].organisation_id`]),
    ],
    [
      'therapists',
      'organisation_id',
      'organisation',
      data.therapists.map((t, i) => [t.id, t.organisation_id, `therapists[${i}].organisation_id`]),
    ],
    [
      'customers',
      'organisation_id',
      'organisation',
      data.customers.map((c, i) => [c.id, c.organisation_id, `customers[${i}].organisation_id`]),
    ],
    [
      'rooms',
      'venue_id',
      'venue',
      venues.flatMap(([v, at]) => v.rooms.map((r, i) => [r.id, v.id, `${at}.rooms[${i}].id`] as const)),
    ],
    [
      'venue_blocks',
      'venue_id',
      'venue',
      venues.flatMap(([v, at]) => v.blocks.map((b, i) => [b.id, v.id, `${at}.blocks[${i}].id`] as const)),
    ],
    ['treatments', 'venue_id', 'venue', treatments.map(([t, at, v]) => [t.id, v.id, `${at}.id`])],
    [
      'variants',
      'treatment_id',
      'treatment',
      treatments.flatMap(([t, at]) => t.variants.map((x, i) => [x.id, t.id, `${at}.variants[${i}].id`] as const)),
    ],
    ['bookings', 'venue_id', 'venue', data.bookings.map((b, i) => [b.id, b.venue_id, `bookings[${i}].venue_id`])],
  ];
  for (const [table, parent, label, entries] of moves) {
    const stored = await parentsOf(
      trx,
      table,
      parent,
      entries.map(([id]) => id),
    );
    for (const [id, fileParent, path] of entries) {
      const dbParent = stored.get(id);
      if (dbParent && dbParent !== fileParent)
        report(path, `${id} belongs to ${label} ${dbParent} in the database; an import cannot move it`);
    }
  }

  const taken = async (query: string, entries: Entry[], what: string) => {
    if (entries.length === 0) return;
    const { rows } = await sql<{
      id: string;
      key: string;
    }>`${sql.raw(query)} in (${sql.join(entries.map(([, key]) => key))})`.execute(trx);
    const holders = new Map(rows.map((r) => [r.key, r.id]));
    for (const [id, key, path] of entries) {
      const holder = holders.get(key);
      if (holder && holder !== id)
        report(path, `${what} is already used by ${holder} in the database; give this entry that id, or change it`);
    }
  };
  await taken(
    'select id::text as id, slug as key from organisations where slug',
    data.organisations.map((o, i) => [o.id, o.slug, `organisations[${i}].slug`]),
    'this slug',
  );
  await taken(
    `select id::text as id, organisation_id || ' ' || slug as key from venues where organisation_id || ' ' || slug`,
    venues.map(([v, at]) => [v.id, `${v.organisation_id} ${v.slug}`, `${at}.slug`]),
    'this slug',
  );
  // Customers booked through the API are found by email, so the file must use their id to describe them.
  await taken(
    `select id::text as id, organisation_id || ' ' || lower(email) as key from customers where organisation_id || ' ' || lower(email)`,
    data.customers.map((c, i) => [c.id, `${c.organisation_id} ${c.email.toLowerCase()}`, `customers[${i}].email`]),
    'this email',
  );
  await taken(
    `select id::text as id, venue_id || ' ' || external_id as key from bookings where venue_id || ' ' || external_id`,
    data.bookings.flatMap((b, i) =>
      b.external_id ? [[b.id, `${b.venue_id} ${b.external_id}`, `bookings[${i}].external_id`] as const] : [],
    ),
    'this external_id',
  );

  await checkDroppedRows(trx, data, report);
  await checkDashboardKeys(trx, data, report);
  return problems;
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
  const outside = fileBookings.length ? sql`and b.id not in (${sql.join(fileBookings)})` : sql``;
  for (const [v, venue] of data.venues.entries()) {
    const rooms = venue.rooms.map((r) => r.id);
    const variants = venue.treatments.flatMap((t) => t.variants.map((x) => x.id));
    const { rows: heldRooms } = await sql<{ room_id: string; booking_id: string }>`
      select r.room_id::text, r.booking_id::text from room_reservations r join bookings b on b.id = r.booking_id
      join rooms on rooms.id = r.room_id
      where rooms.venue_id = ${venue.id} ${rooms.length ? sql`and r.room_id not in (${sql.join(rooms)})` : sql``} ${outside}`.execute(
      trx,
    );
    for (const held of heldRooms)
      report(
        `venues[${v}].rooms`,
        `room ${held.room_id} is not in the file but holds live booking ${held.booking_id}; keep the room or end that booking first`,
      );
    const { rows: used } = await sql<{ variant_id: string; booking_id: string }>`
      select b.variant_id::text, min(b.id::text) as booking_id from bookings b
      where b.venue_id = ${venue.id} ${variants.length ? sql`and b.variant_id not in (${sql.join(variants)})` : sql``} ${outside}
      group by b.variant_id`.execute(trx);
    for (const u of used)
      report(
        `venues[${v}].treatments`,
        `variant ${u.variant_id} is not in the file but booking ${u.booking_id} uses it; bookings keep their treatment and variant`,
      );
  }
}

async function parentsOf(trx: Trx, table: string, parent: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ id: string; parent: string }>`
    select id::text as id, ${sql.ref(parent)}::text as parent from ${sql.table(table)} where id::text in (${sql.join(ids)})`.execute(
    trx,
  );
  return new Map(rows.map((r) => [r.id, r.parent]));
}
