import { type Kysely, sql } from 'kysely';

/**
 * The events feed (GET /v1/events) and the partner-wide booking list (GET /v1/bookings).
 *
 * - `webhook_events.seq`: the feed's order. It is not given at insert: a number drawn inside a transaction that
 *   commits after one drawn later would let a reader paging with `after` pass it by. The feed numbers committed
 *   events itself, under one lock, before it reads (webhooks/events-feed.repository.ts), so an event always gets a
 *   number above every number already read. Existing events are numbered now, oldest first.
 * - The feed reads an organisation's (or, for a venue-restricted key, a venue's) numbered events from a cursor:
 *   (organisation_id, seq) and (venue_id, seq) make each page one index range, however long the outbox.
 * - `webhook_events.recorded`: the order events were written in (drawn at insert, so not the feed's order): among
 *   the events one numbering takes, those written first are numbered first, a transaction's own in its order.
 *   The numbering finds the events still without a number through a partial index that holds only them (a few
 *   rows at any time), instead of scanning the outbox.
 * - The booking list filters by updated_since (reconciliation: what changed since my last look): without
 *   (venue_id, updated_at) it would read every booking of every venue of the organisation. Start ranges and the
 *   order by start_at use (venue_id, start_at), which exists; customer_id and external_id have their own indexes.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table webhook_events add column seq bigint`.execute(db);
  await sql`alter table webhook_events add column recorded bigint generated always as identity`.execute(db);
  await sql`create sequence webhook_events_seq owned by webhook_events.seq`.execute(db);
  await sql`update webhook_events e set seq = numbered.n
    from (select id, nextval('webhook_events_seq') as n
          from (select id from webhook_events where booking_id is not null order by created_at, id) ordered) numbered
    where e.id = numbered.id`.execute(db);
  await sql`create unique index webhook_events_feed_idx on webhook_events (organisation_id, seq) where seq is not null`.execute(
    db,
  );
  await sql`create index webhook_events_venue_feed_idx on webhook_events (venue_id, seq) where seq is not null`.execute(
    db,
  );
  await sql`create index webhook_events_unnumbered_idx on webhook_events (recorded)
    where seq is null and booking_id is not null`.execute(db);
  await sql`create index bookings_venue_updated_idx on bookings (venue_id, updated_at)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists bookings_venue_updated_idx`.execute(db);
  await sql`drop index if exists webhook_events_unnumbered_idx`.execute(db);
  await sql`drop index if exists webhook_events_venue_feed_idx`.execute(db);
  await sql`drop index if exists webhook_events_feed_idx`.execute(db);
  await sql`alter table webhook_events drop column recorded`.execute(db);
  await sql`alter table webhook_events drop column seq`.execute(db);
}
