import { type Kysely, sql } from 'kysely';

/**
 * The dashboard: people of an organisation (one organisation each, email unique), desk people's venues,
 * invitations (only a hash of the single-use token is kept), server-side sessions (only a hash of the cookie
 * token; idle and absolute expiry; when the password was last confirmed) and the audit log.
 * Emails are stored lower-case, so the unique constraint is one address, one person.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('people')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('organisation_id', 'uuid', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) =>
      c
        .notNull()
        .unique()
        .check(sql`email = lower(email)`),
    )
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'desk')`))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('password_changed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('people_organisation_idx').on('people').column('organisation_id').execute();

  await db.schema
    .createTable('person_venues')
    .addColumn('person_id', 'uuid', (c) => c.notNull().references('people.id').onDelete('cascade'))
    .addColumn('venue_id', 'uuid', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('person_venues_pkey', ['person_id', 'venue_id'])
    .execute();

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('organisation_id', 'uuid', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull().check(sql`email = lower(email)`))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'desk')`))
    // Desk venues; checked against the organisation when the invitation is made and again when accepted.
    .addColumn('venue_ids', sql`uuid[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    // Who invited: a person, or null for the operator CLI. No foreign key: the inviter may be removed.
    .addColumn('invited_by', 'uuid')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('accepted_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('invitations_email_idx').on('invitations').column('email').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('person_id', 'uuid', (c) => c.notNull().references('people.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
    // created_at + 12 h: no activity extends it.
    .addColumn('absolute_expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_person_idx').on('sessions').column('person_id').execute();
  await db.schema.createIndex('sessions_absolute_expiry_idx').on('sessions').column('absolute_expires_at').execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('organisation_id', 'uuid', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('actor_type', 'text', (c) => c.notNull().check(sql`actor_type in ('person', 'operator')`))
    // No foreign keys: the log outlives the person; the email is kept as it was.
    .addColumn('actor_person_id', 'uuid')
    .addColumn('actor_email', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint(
      'audit_events_actor_check',
      sql`(actor_type = 'operator' and actor_person_id is null) or (actor_type = 'person' and actor_person_id is not null and actor_email is not null)`,
    )
    .addCheckConstraint('audit_events_target_check', sql`(target_type is null) = (target_id is null)`)
    .execute();
  // The admin's read: newest first within the organisation.
  await sql`create index audit_events_organisation_created_idx on audit_events (organisation_id, created_at desc, id desc)`.execute(
    db,
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['audit_events', 'sessions', 'invitations', 'person_venues', 'people'])
    await db.schema.dropTable(table).ifExists().execute();
}
