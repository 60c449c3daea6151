import type { Kysely } from 'kysely';

/**
 * Indexes for the snapshot's lookups by venue or organisation (scheduling/snapshot.query.ts). Without them every
 * availability request and booking scanned all rooms, therapists, shifts, absences and blocks of the database, a
 * cost that grew with every venue added rather than with the venue asked about. Holds already have theirs: the
 * exclusion constraints' GiST indexes on (room_id, during) and (therapist_id, during).
 */
const INDEXES = [
  ['rooms_venue_idx', 'rooms', 'venue_id'],
  ['therapists_organisation_idx', 'therapists', 'organisation_id'],
  ['therapist_shifts_venue_idx', 'therapist_shifts', 'venue_id'],
  ['therapist_absences_therapist_idx', 'therapist_absences', 'therapist_id'],
  ['venue_blocks_venue_idx', 'venue_blocks', 'venue_id'],
] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, table, column] of INDEXES) await db.schema.createIndex(name).on(table).column(column).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).ifExists().execute();
}
