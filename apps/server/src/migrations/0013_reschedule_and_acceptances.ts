import { type Kysely, sql } from 'kysely';

/**
 * What rescheduling and bookings of several guests need of the database:
 * - `bookings.accepted_count`: how many distinct therapists have accepted (a booking for N guests is confirmed at
 *   the Nth); kept beside the booking so every read of it returns the count without a join; backfilled from the
 *   acceptances booking_offers already records;
 * - `bookings.response_window_from`: when the therapists' response window started, null meaning at creation; a
 *   reschedule that hands the booking to new therapists restarts it (the pending bookings' index follows it);
 * - audit rows written through a partner's API key: actor `api_key` with the key's id (never its secret).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('bookings')
    .addColumn('accepted_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('response_window_from', 'timestamptz')
    .execute();
  await sql`update bookings b set accepted_count = a.n
    from (select booking_id, count(*)::int as n from booking_offers where accepted_at is not null group by booking_id) a
    where a.booking_id = b.id`.execute(db);
  // The response-window job reads pending bookings by when their window started.
  await sql`drop index bookings_pending_created_idx`.execute(db);
  await sql`create index bookings_pending_window_idx on bookings ((coalesce(response_window_from, created_at)))
    where status = 'pending'`.execute(db);
  await db.schema.alterTable('audit_events').addColumn('actor_key_id', 'text').execute();
  await sql`alter table audit_events drop constraint audit_events_actor_type_check`.execute(db);
  await sql`alter table audit_events drop constraint audit_events_actor_check`.execute(db);
  await sql`alter table audit_events add constraint audit_events_actor_check check (
    (actor_type = 'operator' and actor_person_id is null and actor_key_id is null)
    or (actor_type = 'person' and actor_person_id is not null and actor_email is not null and actor_key_id is null)
    or (actor_type = 'api_key' and actor_key_id is not null and actor_person_id is null))`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from audit_events where actor_type = 'api_key'`.execute(db);
  await sql`alter table audit_events drop constraint audit_events_actor_check`.execute(db);
  await sql`alter table audit_events add constraint audit_events_actor_check check (
    (actor_type = 'operator' and actor_person_id is null)
    or (actor_type = 'person' and actor_person_id is not null and actor_email is not null))`.execute(db);
  await sql`alter table audit_events add constraint audit_events_actor_type_check check (actor_type in ('person', 'operator'))`.execute(
    db,
  );
  await db.schema.alterTable('audit_events').dropColumn('actor_key_id').execute();
  await sql`drop index bookings_pending_window_idx`.execute(db);
  await db.schema.alterTable('bookings').dropColumn('accepted_count').dropColumn('response_window_from').execute();
  await sql`create index bookings_pending_created_idx on bookings (created_at) where status = 'pending'`.execute(db);
}
