import { type Kysely, sql } from 'kysely';

/**
 * Webhooks: endpoints with encrypted secrets, a transactional outbox of events, one delivery per event and
 * endpoint (claimed with FOR UPDATE SKIP LOCKED under a lease), and the attempt log the operator reads.
 * Also the venue's therapist response time, after which a pending booking becomes awaiting_therapist.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('venues')
    .addColumn('therapist_response_minutes', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(15)
        .check(sql`therapist_response_minutes > 0`),
    )
    .execute();
  // The pending-timeout job scans pending bookings by age only.
  await sql`create index bookings_pending_created_idx on bookings (created_at) where status = 'pending'`.execute(db);

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('organisation_id', 'uuid', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('venue_id', 'uuid', (c) => c.references('venues.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    // Empty: every event type.
    .addColumn('event_types', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('secret_encrypted', 'text', (c) => c.notNull())
    .addColumn('previous_secret_encrypted', 'text')
    .addColumn('previous_secret_expires_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_success_at', 'timestamptz')
    // First failure since the last success: five days of it disable the endpoint.
    .addColumn('failing_since', 'timestamptz')
    .addColumn('disabled_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_organisation_idx')
    .on('webhook_endpoints')
    .column('organisation_id')
    .execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('booking_id', 'uuid', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    .addColumn('organisation_id', 'uuid', (c) => c.notNull())
    .addColumn('venue_id', 'uuid', (c) => c.notNull())
    // The exact bytes sent, so every retry carries the same body and signature input.
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_events_booking_idx').on('webhook_events').column('booking_id').execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('event_id', 'uuid', (c) => c.notNull().references('webhook_events.id').onDelete('cascade'))
    .addColumn('endpoint_id', 'uuid', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'succeeded', 'failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull())
    .addColumn('lease_until', 'timestamptz')
    .addColumn('lease_token', 'uuid')
    .addColumn('completed_at', 'timestamptz')
    .addUniqueConstraint('webhook_deliveries_event_endpoint_key', ['event_id', 'endpoint_id'])
    .execute();
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(
    db,
  );
  await db.schema
    .createIndex('webhook_deliveries_endpoint_idx')
    .on('webhook_deliveries')
    .column('endpoint_id')
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('delivery_id', 'bigint', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery_idx').on('webhook_attempts').column('delivery_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhook_events', 'webhook_endpoints'])
    await db.schema.dropTable(table).ifExists().execute();
  await sql`drop index if exists bookings_pending_created_idx`.execute(db);
  await db.schema.alterTable('venues').dropColumn('therapist_response_minutes').execute();
}
