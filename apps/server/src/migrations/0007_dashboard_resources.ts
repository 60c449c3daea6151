import { type Kysely, sql } from 'kysely';

/**
 * What the dashboard's resource pages need of the webhook tables:
 * - a test event (`POST /dashboard/api/webhook-endpoints/{id}/test`) belongs to no booking or venue and is
 *   addressed to one endpoint, so `booking_id` and `venue_id` may be null and `endpoint_id` names its one
 *   recipient (a replay goes back to it alone; removing the endpoint removes its test events);
 * - the deliveries page lists an organisation's events newest first, which the organisation index serves.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('webhook_events')
    .alterColumn('booking_id', (c) => c.dropNotNull())
    .alterColumn('venue_id', (c) => c.dropNotNull())
    .addColumn('endpoint_id', 'uuid', (c) => c.references('webhook_endpoints.id').onDelete('cascade'))
    .execute();
  await sql`alter table webhook_events add constraint webhook_events_subject_check
    check ((booking_id is null) = (endpoint_id is not null) and (booking_id is null) = (venue_id is null))`.execute(db);
  await db.schema
    .createIndex('webhook_events_organisation_created_idx')
    .on('webhook_events')
    .columns(['organisation_id', 'created_at'])
    .execute();
  await db.schema.createIndex('webhook_events_endpoint_idx').on('webhook_events').column('endpoint_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('webhook_events').where('booking_id', 'is', null).execute();
  await db.schema.dropIndex('webhook_events_endpoint_idx').ifExists().execute();
  await db.schema.dropIndex('webhook_events_organisation_created_idx').ifExists().execute();
  await sql`alter table webhook_events drop constraint webhook_events_subject_check`.execute(db);
  await db.schema
    .alterTable('webhook_events')
    .dropColumn('endpoint_id')
    .alterColumn('booking_id', (c) => c.setNotNull())
    .alterColumn('venue_id', (c) => c.setNotNull())
    .execute();
}
