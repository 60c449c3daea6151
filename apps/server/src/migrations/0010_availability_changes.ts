import { type Kysely, sql } from 'kysely';

/** The channel every server process listens on for schedule changes (src/availability/availability-cache.ts). */
export const AVAILABILITY_CHANGES_CHANNEL = 'availability_changes';

/** Every table the availability answer reads (snapshot.query.ts, and findVenueWithVariant for the venue and variant). */
export const AVAILABILITY_TABLES = [
  'venues',
  'one_time_openings',
  'venue_blocks',
  'rooms',
  'treatments',
  'treatment_rooms',
  'variants',
  'therapists',
  'therapist_shifts',
  'therapist_shift_overrides',
  'therapist_absences',
  'room_reservations',
  'therapist_reservations',
] as const;

/**
 * Every change to what availability reads announces the venues whose answers it may change, whoever makes it (a
 * booking, the importer, the CLI, a cascade, an operator's own SQL), on a notification channel, in the writing
 * transaction: PostgreSQL delivers the notices when it commits, and never if it rolls back. One notice per venue
 * (a UUID, far below the 8000-byte payload limit); PostgreSQL folds identical notices of one transaction into one,
 * so an import of thousands of rows sends each venue once. `*` (a TRUNCATE) means every venue.
 *
 * A therapist works at several venues and its holds anywhere count against it everywhere (snapshot.query.ts reads
 * a qualified therapist's holds at every venue), so a change to a therapist, its absences or its holds announces
 * every venue where it has a shift or an override. Row triggers, not statement triggers with transition tables:
 * one function covers all thirteen tables and their three operations, and the lookups are by indexed keys.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const channel = sql.lit(AVAILABILITY_CHANGES_CHANNEL);
  // PL/pgSQL, each table its own branch: a field is read (and cast) only for the tables that have it.
  await sql`
    create function availability_venues_of(tbl text, r jsonb) returns setof uuid language plpgsql stable as $$
    declare
      therapist uuid;
    begin
      if tbl = 'venues' then
        return next (r->>'id')::uuid;
      elsif tbl in ('one_time_openings', 'venue_blocks', 'rooms', 'treatments', 'therapist_shifts',
                    'therapist_shift_overrides') then
        return next (r->>'venue_id')::uuid;
      elsif tbl = 'room_reservations' then
        return query select ro.venue_id from rooms ro where ro.id = (r->>'room_id')::uuid;
      elsif tbl = 'treatment_rooms' then
        return query select ro.venue_id from rooms ro where ro.id = (r->>'room_id')::uuid
          union select t.venue_id from treatments t where t.id = (r->>'treatment_id')::uuid;
      elsif tbl = 'variants' then
        return query select t.venue_id from treatments t where t.id = (r->>'treatment_id')::uuid;
      elsif tbl in ('therapists', 'therapist_absences', 'therapist_reservations') then
        therapist := (case when tbl = 'therapists' then r->>'id' else r->>'therapist_id' end)::uuid;
        if tbl = 'therapist_reservations' then
          return next (r->>'venue_id')::uuid;
        end if;
        return query select s.venue_id from therapist_shifts s where s.therapist_id = therapist
          union select o.venue_id from therapist_shift_overrides o where o.therapist_id = therapist;
      end if;
    end $$`.execute(db);
  await sql`
    create function notify_availability_change() returns trigger language plpgsql as $$
    declare
      venue uuid;
    begin
      if tg_op = 'TRUNCATE' then
        perform pg_notify(${channel}, '*');
        return null;
      end if;
      if tg_op in ('UPDATE', 'DELETE') then
        for venue in select availability_venues_of(tg_table_name, to_jsonb(old)) loop
          perform pg_notify(${channel}, venue::text);
        end loop;
      end if;
      if tg_op in ('UPDATE', 'INSERT') then
        for venue in select availability_venues_of(tg_table_name, to_jsonb(new)) loop
          perform pg_notify(${channel}, venue::text);
        end loop;
      end if;
      return null;
    end $$`.execute(db);
  for (const table of AVAILABILITY_TABLES) {
    await sql`create trigger ${sql.id(`${table}_availability_changed`)} after insert or update or delete on ${sql.table(table)}
      for each row execute function notify_availability_change()`.execute(db);
    await sql`create trigger ${sql.id(`${table}_availability_truncated`)} after truncate on ${sql.table(table)}
      for each statement execute function notify_availability_change()`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of AVAILABILITY_TABLES) {
    await sql`drop trigger ${sql.id(`${table}_availability_changed`)} on ${sql.table(table)}`.execute(db);
    await sql`drop trigger ${sql.id(`${table}_availability_truncated`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function notify_availability_change()`.execute(db);
  await sql`drop function availability_venues_of(text, jsonb)`.execute(db);
}
