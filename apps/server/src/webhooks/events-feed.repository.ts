import { sql } from 'kysely';
import type { OrganisationScope } from '../auth/organisation-scope.js';
import type { Db } from '../db/connect.js';
import { advisoryLockKey } from '../db/advisory-lock.js';

/** One numbering at a time: numbers drawn under it are above every number a committed numbering gave. */
const NUMBERING_LOCK = advisoryLockKey('webhook-events-feed-numbering');

/** Events numbered per numbering transaction: the rest wait for the next reader, numbered after these. */
const NUMBERING_BATCH = 5000;

/**
 * Gives the feed's order (`seq`) to the booking events that have committed and have none yet, in the order they
 * were written.
 *
 * Why not at insert: a number drawn by a transaction that commits after another one that drew a larger number
 * would become visible behind a cursor a reader already passed, and that reader would never see it. Here every
 * number is drawn under one lock, by a transaction that sees only committed events: whatever it numbers gets
 * numbers above those of every earlier numbering, and an event that commits later is numbered later, above them
 * all. So "seq > after" never passes an event by. A test event (one endpoint's, not a booking's) is not in the feed.
 */
export async function numberCommittedEvents(db: Db): Promise<void> {
  // Cheap most of the time: the partial index holds only the events still to number.
  const waiting = await db
    .selectFrom('webhook_events')
    .select('id')
    .where('seq', 'is', null)
    .where('booking_id', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  if (!waiting) return;
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${NUMBERING_LOCK})`.execute(trx);
    // nextval in the projection of the ordered subquery: drawn in that order.
    await sql`
      update webhook_events e set seq = numbered.seq
      from (select id, nextval('webhook_events_seq') as seq
            from (select id from webhook_events where seq is null and booking_id is not null
                  order by recorded limit ${NUMBERING_BATCH}) waiting) numbered
      where e.id = numbered.id
    `.execute(trx);
  });
}

export interface FeedEventRow {
  id: string;
  body: string;
  seq: number | null;
  livemode: boolean;
}

/** Where an `after` event stands, or undefined when the scope cannot see it (never was, or no longer kept). */
export async function findFeedPosition(db: Db, scope: OrganisationScope, eventId: string) {
  return inScope(db, scope).select('seq').where('id', '=', eventId).executeTakeFirst();
}

/**
 * Up to `limit` + 1 numbered events of the scope after `afterSeq`, in the feed's order: the extra one tells
 * whether more follow. Each page is one range of (organisation_id, seq), or of (venue_id, seq) for one venue.
 */
export async function listFeedEvents(
  db: Db,
  scope: OrganisationScope,
  query: { afterSeq: number; types?: readonly string[] | undefined; bookingId?: string | undefined; limit: number },
): Promise<FeedEventRow[]> {
  let q = inScope(db, scope).select(['id', 'body', 'seq', 'livemode']).where('seq', '>', query.afterSeq);
  if (query.types !== undefined) q = q.where('type', 'in', [...query.types]);
  if (query.bookingId !== undefined) q = q.where('booking_id', '=', query.bookingId);
  return q
    .orderBy('seq')
    .limit(query.limit + 1)
    .execute();
}

/** One event of the scope by id, numbered or not yet. */
export async function findFeedEvent(db: Db, scope: OrganisationScope, eventId: string) {
  return inScope(db, scope).select(['id', 'body', 'seq', 'livemode']).where('id', '=', eventId).executeTakeFirst();
}

/** The scope's booking events: its organisation's and mode's, of its venues when it lists some. */
function inScope(db: Db, scope: OrganisationScope) {
  const q = db
    .selectFrom('webhook_events')
    .where('organisation_id', '=', scope.organisationId)
    .where('livemode', '=', scope.livemode)
    .where('booking_id', 'is not', null);
  if (scope.venueIds === null) return q;
  return scope.venueIds.length ? q.where('venue_id', 'in', [...scope.venueIds]) : q.where(sql<boolean>`false`);
}
