import { type Kysely, sql } from 'kysely';

/**
 * The whole domain in one migration, designed for the availability and booking work:
 * reservations carry tstzrange columns guarded by exclusion constraints, so the database itself
 * makes a double booking of a room or a therapist impossible, whatever the application does.
 */
// Migrations see the database as it was when they were written, not as schema.ts describes it now.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists btree_gist`.execute(db);

  await db.schema
    .createTable('organisations')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('venues')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('organisation_id', 'uuid', (c) => c.notNull().references('organisations.id'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('venue_type', 'text', (c) => c.notNull().check(sql`venue_type in ('hotel', 'spa')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text')
    .addColumn('description', 'text')
    .addColumn('description_en', 'text')
    .addColumn('landing_subtitle', 'text')
    .addColumn('address', 'text')
    .addColumn('postal_code', 'text')
    .addColumn('city', 'text')
    .addColumn('country', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text')
    .addColumn('vat', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('image', 'text')
    .addColumn('cover_image', 'text')
    .addColumn('opening_time', 'time', (c) => c.notNull())
    .addColumn('closing_time', 'time', (c) => c.notNull())
    .addColumn('slot_interval', 'integer', (c) => c.notNull().check(sql`slot_interval > 0`))
    .addColumn('schedule_type', 'text', (c) => c.notNull().check(sql`schedule_type in ('recurring', 'one_time')`))
    .addColumn('days_of_week', sql`smallint[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('recurrence_interval', 'integer')
    .addColumn('recurring_start_date', 'date')
    .addColumn('recurring_end_date', 'date')
    .addColumn('offert', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('booking_hold_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('booking_hold_duration_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allow_out_of_hours_booking', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('out_of_hours_surcharge_percent', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('room_turnover_buffer_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('inter_venue_buffer_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancellation_policy', 'jsonb', (c) => c.notNull())
    .addUniqueConstraint('venues_organisation_slug_key', ['organisation_id', 'slug'])
    .addCheckConstraint('venues_hours_check', sql`opening_time < closing_time`)
    .execute();

  await db.schema
    .createTable('one_time_openings')
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('date', 'date', (c) => c.notNull())
    .addColumn('opening_time', 'time')
    .addColumn('closing_time', 'time')
    .addPrimaryKeyConstraint('one_time_openings_pkey', ['venue_id', 'date'])
    .execute();

  // A block is either daily (local times) or one-off (instants).
  await db.schema
    .createTable('venue_blocks')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('daily', 'boolean', (c) => c.notNull())
    .addColumn('start_time', 'time')
    .addColumn('end_time', 'time')
    .addColumn('start_at', 'timestamptz')
    .addColumn('end_at', 'timestamptz')
    .addColumn('reason', 'text')
    .addCheckConstraint(
      'venue_blocks_shape_check',
      sql`(daily and start_time < end_time and start_at is null and end_at is null)
        or (not daily and start_at < end_at and start_time is null and end_time is null)`,
    )
    .execute();

  await db.schema
    .createTable('rooms')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull().check(sql`capacity > 0`))
    .execute();

  await db.schema
    .createTable('treatments')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text')
    .addColumn('description', 'text')
    .addColumn('description_en', 'text')
    .addColumn('category', 'text')
    .addColumn('lead_time_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('required_skills', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .execute();

  await db.schema
    .createTable('treatment_rooms')
    .addColumn('treatment_id', 'uuid', (c) => c.notNull().references('treatments.id').onDelete('cascade'))
    .addColumn('room_id', 'uuid', (c) => c.notNull().references('rooms.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('treatment_rooms_pkey', ['treatment_id', 'room_id'])
    .execute();

  await db.schema
    .createTable('variants')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('treatment_id', 'uuid', (c) => c.notNull().references('treatments.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('duration_minutes', 'integer', (c) => c.notNull().check(sql`duration_minutes > 0`))
    .addColumn('price_minor', 'bigint', (c) => c.notNull().check(sql`price_minor >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('is_default', 'boolean', (c) => c.notNull())
    .execute();
  // Exactly one default per treatment: at most one here, at least one checked by the importer.
  await sql`create unique index variants_one_default on variants (treatment_id) where is_default`.execute(db);

  await db.schema
    .createTable('therapists')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('organisation_id', 'uuid', (c) => c.notNull().references('organisations.id'))
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('skills', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .execute();

  await db.schema
    .createTable('therapist_shifts')
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('therapist_id', 'uuid', (c) => c.notNull().references('therapists.id').onDelete('cascade'))
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('days_of_week', sql`smallint[]`, (c) => c.notNull())
    .addColumn('start_time', 'time', (c) => c.notNull())
    .addColumn('end_time', 'time', (c) => c.notNull())
    .addCheckConstraint('therapist_shifts_hours_check', sql`start_time < end_time`)
    .execute();

  await db.schema
    .createTable('therapist_shift_overrides')
    .addColumn('therapist_id', 'uuid', (c) => c.notNull().references('therapists.id').onDelete('cascade'))
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('date', 'date', (c) => c.notNull())
    .addColumn('start_time', 'time')
    .addColumn('end_time', 'time')
    .addPrimaryKeyConstraint('therapist_shift_overrides_pkey', ['therapist_id', 'venue_id', 'date'])
    .addCheckConstraint(
      'therapist_shift_overrides_hours_check',
      sql`(start_time is null and end_time is null) or start_time < end_time`,
    )
    .execute();

  await db.schema
    .createTable('therapist_absences')
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('therapist_id', 'uuid', (c) => c.notNull().references('therapists.id').onDelete('cascade'))
    .addColumn('start_at', 'timestamptz', (c) => c.notNull())
    .addColumn('end_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('therapist_absences_range_check', sql`start_at < end_at`)
    .execute();

  await db.schema
    .createTable('customers')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('organisation_id', 'uuid', (c) => c.notNull().references('organisations.id'))
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('fr'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Find-or-create of a guest goes through this key, so concurrent bookings of one guest share one customer.
  await sql`create unique index customers_organisation_email_key on customers (organisation_id, lower(email))`.execute(
    db,
  );

  await db.schema
    .createTable('bookings')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('booking_number', sql`bigint generated always as identity (start with 10001)`, (c) =>
      c.notNull().unique(),
    )
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.id'))
    .addColumn('treatment_id', 'uuid', (c) => c.notNull().references('treatments.id'))
    .addColumn('variant_id', 'uuid', (c) => c.notNull().references('variants.id'))
    .addColumn('customer_id', 'uuid', (c) => c.notNull().references('customers.id'))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .check(sql`status in ('pending', 'awaiting_therapist', 'confirmed', 'completed', 'no_show', 'cancelled')`),
    )
    .addColumn('start_at', 'timestamptz', (c) => c.notNull())
    .addColumn('end_at', 'timestamptz', (c) => c.notNull())
    .addColumn('guest_count', 'integer', (c) => c.notNull().check(sql`guest_count between 1 and 20`))
    .addColumn('notes', 'text')
    .addColumn('external_reference', 'text')
    .addColumn('external_id', 'text')
    .addColumn('client_type', 'text', (c) => c.notNull())
    .addColumn('total_price_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('payment_method', 'text', (c) => c.notNull().defaultTo('partner_billed'))
    .addColumn('payment_status', 'text', (c) => c.notNull().defaultTo('paid'))
    .addColumn('therapist_id', 'uuid', (c) => c.references('therapists.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('cancelled_by', 'text')
    .addColumn('cancellation_reason', 'text')
    .addColumn('cancellation_fee_minor', 'bigint')
    .addColumn('cancellation_policy_text', 'text')
    // Idempotency: one booking per (venue, external_id), whatever the concurrency.
    .addUniqueConstraint('bookings_venue_external_id_key', ['venue_id', 'external_id'])
    .addCheckConstraint('bookings_range_check', sql`start_at < end_at`)
    .execute();
  await db.schema
    .createIndex('bookings_customer_venue_idx')
    .on('bookings')
    .columns(['customer_id', 'venue_id', 'start_at'])
    .execute();
  await db.schema.createIndex('bookings_venue_start_idx').on('bookings').columns(['venue_id', 'start_at']).execute();

  // Live holds only: a row exists while its booking is pending, awaiting_therapist or confirmed.
  await db.schema
    .createTable('room_reservations')
    .addColumn('booking_id', 'uuid', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    .addColumn('room_id', 'uuid', (c) => c.notNull().references('rooms.id'))
    .addColumn('during', sql`tstzrange`, (c) => c.notNull())
    .addPrimaryKeyConstraint('room_reservations_pkey', ['booking_id', 'room_id'])
    .execute();
  await sql`alter table room_reservations add constraint room_reservations_no_overlap
    exclude using gist (room_id with =, during with &&)`.execute(db);

  await db.schema
    .createTable('therapist_reservations')
    .addColumn('booking_id', 'uuid', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    .addColumn('therapist_id', 'uuid', (c) => c.notNull().references('therapists.id'))
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.id'))
    .addColumn('during', sql`tstzrange`, (c) => c.notNull())
    .addPrimaryKeyConstraint('therapist_reservations_pkey', ['booking_id', 'therapist_id'])
    .execute();
  await sql`alter table therapist_reservations add constraint therapist_reservations_no_overlap
    exclude using gist (therapist_id with =, during with &&)`.execute(db);

  // The broadcast: every qualified, free therapist a pending booking was offered to.
  await db.schema
    .createTable('booking_offers')
    .addColumn('booking_id', 'uuid', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    .addColumn('therapist_id', 'uuid', (c) => c.notNull().references('therapists.id'))
    .addColumn('offered_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('accepted_at', 'timestamptz')
    .addPrimaryKeyConstraint('booking_offers_pkey', ['booking_id', 'therapist_id'])
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey().check(sql`id ~ '^[0-9a-f]{12}$'`))
    .addColumn('organisation_id', 'uuid', (c) => c.notNull().references('organisations.id'))
    .addColumn('venue_id', 'uuid', (c) => c.references('venues.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('dashboard', 'operator')`))
    .addColumn('scopes', sql`text[]`, (c) => c.notNull())
    .addColumn('rate_limit_per_min', 'integer')
    .addColumn('secret_hmac', 'text', (c) => c.notNull())
    .addColumn('secret_encrypted', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  // One active dashboard key per organisation (docs/api.md, "Authentication and keys").
  await sql`create unique index api_keys_one_active_dashboard on api_keys (organisation_id)
    where kind = 'dashboard' and revoked_at is null`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'api_keys',
    'booking_offers',
    'therapist_reservations',
    'room_reservations',
    'bookings',
    'customers',
    'therapist_absences',
    'therapist_shift_overrides',
    'therapist_shifts',
    'therapists',
    'variants',
    'treatment_rooms',
    'treatments',
    'rooms',
    'venue_blocks',
    'one_time_openings',
    'venues',
    'organisations',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
