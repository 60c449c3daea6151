import type { Kysely } from 'kysely';

/**
 * The retention job (retention/retention-rules.ts) finds expired webhook events by age: an index on created_at
 * lets each of its small batches read the oldest events instead of scanning the outbox. Deliveries and attempts
 * are found from their event through the indexes they already have (event_id, delivery_id).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('webhook_events_created_idx').on('webhook_events').column('created_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_events_created_idx').ifExists().execute();
}
