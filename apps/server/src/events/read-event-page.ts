import type { OrganisationScope } from '../auth/organisation-scope.js';
import type { Db } from '../db/connect.js';
import { EventCursorExpiredError } from '../errors/domain-errors.js';
import { findFeedPosition, listFeedEvents, numberCommittedEvents } from '../webhooks/index.js';
import { toEvent } from './event.mapper.js';

export interface EventPageRequest {
  after?: string | undefined;
  types?: readonly string[] | undefined;
  bookingId?: string | undefined;
  limit: number;
}

/**
 * One page of the feed: the events committed so far are numbered first, so the page holds every event that
 * committed before this request, in the feed's order, and one that commits later can only come after it.
 * An `after` the scope cannot see (deleted past retention, never one of its events) is 410: the reader has to
 * reconcile, since the feed cannot say what followed it.
 */
export async function readEventPage(db: Db, scope: OrganisationScope, request: EventPageRequest) {
  await numberCommittedEvents(db);
  let afterSeq = 0;
  if (request.after !== undefined) {
    let position = await findFeedPosition(db, scope, request.after);
    if (!position) throw new EventCursorExpiredError();
    // Committed between the numbering and this read (an id taken from a webhook delivery): number it too.
    if (position.seq === null) {
      await numberCommittedEvents(db);
      position = await findFeedPosition(db, scope, request.after);
    }
    if (!position || position.seq === null) throw new EventCursorExpiredError();
    afterSeq = position.seq;
  }
  const rows = await listFeedEvents(db, scope, { ...request, afterSeq });
  const data = rows.slice(0, request.limit).map(toEvent);
  return {
    data,
    has_more: rows.length > request.limit,
    next_after: data.at(-1)?.id ?? request.after ?? null,
  };
}
