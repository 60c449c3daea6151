import { sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Trx } from './upsert.js';
import type { VenueData } from './venue-data.schema.js';

/** What an import did to the rows of one entity. */
export interface EntityChanges {
  created: number;
  updated: number;
  unchanged: number;
}

type Table = keyof Database;

/**
 * Each entity of the file, its table, and the child rows that belong to it (a venue's one-time openings, a
 * treatment's rooms, a therapist's shifts): a change there is a change of the entity.
 */
const ENTITIES = {
  organisations: { table: 'organisations', children: [] },
  api_keys: { table: 'api_keys', children: [] },
  venues: { table: 'venues', children: [['one_time_openings', 'venue_id']] },
  rooms: { table: 'rooms', children: [] },
  blocks: { table: 'venue_blocks', children: [] },
  treatments: { table: 'treatments', children: [['treatment_rooms', 'treatment_id']] },
  variants: { table: 'variants', children: [] },
  therapists: {
    table: 'therapists',
    children: [
      ['therapist_shifts', 'therapist_id'],
      ['therapist_shift_overrides', 'therapist_id'],
      ['therapist_absences', 'therapist_id'],
    ],
  },
  customers: { table: 'customers', children: [] },
  bookings: { table: 'bookings', children: [] },
} as const satisfies Record<string, { table: Table; children: readonly (readonly [Table, string])[] }>;

export type Entity = keyof typeof ENTITIES;

/** The stored state of every entity the file names: id → fingerprint, per entity. Absent ids are not stored. */
export type Fingerprints = Record<Entity, Map<string, string>>;

export async function fingerprints(trx: Trx, data: VenueData): Promise<Fingerprints> {
  const ids = idsOf(data);
  const entities = Object.entries(ENTITIES) as [Entity, (typeof ENTITIES)[Entity]][];
  const result = Object.fromEntries(entities.map(([entity]) => [entity, new Map()])) as Fingerprints;
  // One statement for every entity (a union), not one each: an import runs this twice, and on the embedded
  // database each statement costs a round trip through the WebAssembly PostgreSQL.
  const selects = entities
    .filter(([entity]) => ids[entity].length > 0)
    .map(([entity, { table, children }]) => {
      // Generated ids of child rows and timestamps are left out: the import rewrites them without a change of content.
      const childParts = children.map(
        ([child, key]) =>
          sql`coalesce((select jsonb_agg(to_jsonb(c) - 'id' order by (to_jsonb(c) - 'id')::text) from ${sql.table(child)} c where c.${sql.ref(key)} = t.id)::text, '')`,
      );
      return sql`
        select ${entity}::text as entity, t.id::text as id,
               md5(concat_ws('|', (to_jsonb(t) - 'created_at' - 'updated_at')::text ${sql.join(
                 childParts.map((part) => sql`, ${part}`),
                 sql``,
               )})) as fingerprint
        from ${sql.table(table)} t where t.id = any(${ids[entity]}::${sql.raw(table === 'api_keys' ? 'text' : 'uuid')}[])`;
    });
  if (selects.length === 0) return result;
  const { rows } = await sql<{ entity: Entity; id: string; fingerprint: string }>`${sql.join(
    selects,
    sql` union all `,
  )}`.execute(trx);
  for (const row of rows) result[row.entity].set(row.id, row.fingerprint);
  return result;
}

/** Created (absent before), updated (fingerprint changed) or unchanged, per entity of the file. */
export function compare(before: Fingerprints, after: Fingerprints): Record<Entity, EntityChanges> {
  const changes = {} as Record<Entity, EntityChanges>;
  for (const entity of Object.keys(ENTITIES) as Entity[]) {
    const tally: EntityChanges = { created: 0, updated: 0, unchanged: 0 };
    for (const [id, fingerprint] of after[entity]) {
      const previous = before[entity].get(id);
      if (previous === undefined) tally.created++;
      else if (previous === fingerprint) tally.unchanged++;
      else tally.updated++;
    }
    changes[entity] = tally;
  }
  return changes;
}

function idsOf(data: VenueData): Record<Entity, string[]> {
  const treatments = data.venues.flatMap((v) => v.treatments);
  return {
    organisations: data.organisations.map((o) => o.id),
    api_keys: data.api_keys.map((k) => k.id),
    venues: data.venues.map((v) => v.id),
    rooms: data.venues.flatMap((v) => v.rooms.map((r) => r.id)),
    blocks: data.venues.flatMap((v) => v.blocks.map((b) => b.id)),
    treatments: treatments.map((t) => t.id),
    variants: treatments.flatMap((t) => t.variants.map((x) => x.id)),
    therapists: data.therapists.map((t) => t.id),
    customers: data.customers.map((c) => c.id),
    bookings: data.bookings.map((b) => b.id),
  };
}
