import { type Kysely, sql } from 'kysely';

/**
 * What the dashboard's second round needs of the database:
 * - `audit_events.target_label`: what the target was called when the change was made (a person's email, an
 *   endpoint's URL, a booking's number), so the log still says who was removed once the row is gone;
 * - `webhook_deliveries.attempt_base` and `manual_next`, `webhook_attempts.manual`: a replay numbers its attempts on
 *   from the delivery's last one (the retry schedule still counts from the replay) and marks the attempt it asked for;
 * - an index of each person's sign-in addresses (the throttle never locks a person out of one they have used);
 * - `ended_sessions`: why a session ended when it was ended for its holder (removed, password changed, signed out
 *   everywhere), kept until the session would have expired anyway, so the next request can say so.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_events').addColumn('target_label', 'text').execute();
  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('attempt_base', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('manual_next', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable('webhook_attempts')
    .addColumn('manual', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  // The addresses a person has signed in from: the sign-in throttle's exemption from a campaign against their email.
  await sql`create index audit_events_sign_ins_idx on audit_events (actor_person_id, ip)
    where action = 'session.signed_in'`.execute(db);
  await db.schema
    .createTable('ended_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('reason', 'text', (c) =>
      c.notNull().check(sql`reason in ('removed', 'password_changed', 'signed_out_everywhere')`),
    )
    .addColumn('ended_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ended_sessions').ifExists().execute();
  await sql`drop index if exists audit_events_sign_ins_idx`.execute(db);
  await db.schema.alterTable('webhook_attempts').dropColumn('manual').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('attempt_base').dropColumn('manual_next').execute();
  await db.schema.alterTable('audit_events').dropColumn('target_label').execute();
}
