import { type Kysely, sql } from 'kysely';

/** The tables whose rows belong to one mode: what a partner writes, and the keys and endpoints that write or read it. */
const MODED = [
  'api_keys',
  'bookings',
  'customers',
  'webhook_events',
  'webhook_endpoints',
  'webhook_deliveries',
  'room_reservations',
  'therapist_reservations',
] as const;

/**
 * Test mode: every row a partner writes carries `livemode` (existing rows are live), and the database keeps the two
 * modes apart: a hold conflicts only with a hold of its own mode (the exclusion constraints include the mode), and
 * an external id, a guest's email and an organisation's dashboard key are unique per mode. The holds carry their
 * booking's mode so the constraints can see it. Test keys for existing organisations are issued at start
 * (keys/test-keys.ts): a migration has no key-encryption key to store a secret with.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of MODED)
    await db.schema
      .alterTable(table)
      .addColumn('livemode', 'boolean', (c) => c.notNull().defaultTo(true))
      .execute();

  await sql`alter table room_reservations drop constraint room_reservations_no_overlap`.execute(db);
  await sql`alter table room_reservations add constraint room_reservations_no_overlap
    exclude using gist (room_id with =, livemode with =, during with &&)`.execute(db);
  await sql`alter table therapist_reservations drop constraint therapist_reservations_no_overlap`.execute(db);
  await sql`alter table therapist_reservations add constraint therapist_reservations_no_overlap
    exclude using gist (therapist_id with =, livemode with =, during with &&)`.execute(db);

  await sql`alter table bookings drop constraint bookings_venue_external_id_key`.execute(db);
  await sql`alter table bookings add constraint bookings_venue_external_id_key
    unique (venue_id, livemode, external_id)`.execute(db);
  await sql`drop index customers_organisation_email_key`.execute(db);
  await sql`create unique index customers_organisation_email_key
    on customers (organisation_id, livemode, lower(email))`.execute(db);
  await sql`drop index api_keys_one_active_dashboard`.execute(db);
  await sql`create unique index api_keys_one_active_dashboard on api_keys (organisation_id, livemode)
    where kind = 'dashboard' and revoked_at is null`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of MODED) await sql`delete from ${sql.table(table)} where not livemode`.execute(db);
  await sql`drop index api_keys_one_active_dashboard`.execute(db);
  await sql`create unique index api_keys_one_active_dashboard on api_keys (organisation_id)
    where kind = 'dashboard' and revoked_at is null`.execute(db);
  await sql`drop index customers_organisation_email_key`.execute(db);
  await sql`create unique index customers_organisation_email_key on customers (organisation_id, lower(email))`.execute(
    db,
  );
  await sql`alter table bookings drop constraint bookings_venue_external_id_key`.execute(db);
  await sql`alter table bookings add constraint bookings_venue_external_id_key unique (venue_id, external_id)`.execute(
    db,
  );
  await sql`alter table therapist_reservations drop constraint therapist_reservations_no_overlap`.execute(db);
  await sql`alter table therapist_reservations add constraint therapist_reservations_no_overlap
    exclude using gist (therapist_id with =, during with &&)`.execute(db);
  await sql`alter table room_reservations drop constraint room_reservations_no_overlap`.execute(db);
  await sql`alter table room_reservations add constraint room_reservations_no_overlap
    exclude using gist (room_id with =, during with &&)`.execute(db);
  for (const table of MODED) await db.schema.alterTable(table).dropColumn('livemode').execute();
}
