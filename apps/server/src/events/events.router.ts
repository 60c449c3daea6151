import { contract } from '@spa/contract';
import { initServer } from '@ts-rest/express';
import type { RouteDeps } from '../app-deps.js';
import { scopeOfKey } from '../auth/organisation-scope.js';
import { principalOf } from '../auth/principal.js';
import { EventNotFoundError } from '../errors/domain-errors.js';
import { findFeedEvent } from '../webhooks/index.js';
import { toEvent } from './event.mapper.js';
import { readEventPage } from './read-event-page.js';

/** The events feed reads and numbers on the primary: it writes (the numbering) and must see the latest commits. */
export function eventsRouter({ db }: RouteDeps) {
  return initServer().router(contract.events, {
    list: async ({ query, res }) => {
      const page = await readEventPage(db, scopeOfKey(principalOf(res)), {
        after: query.after?.toLowerCase(),
        types: query.type,
        bookingId: query.booking_id?.toLowerCase(),
        limit: query.limit,
      });
      return { status: 200, body: page };
    },
    get: async ({ params, res }) => {
      const row = await findFeedEvent(db, scopeOfKey(principalOf(res)), params.event_id.toLowerCase());
      if (!row) throw new EventNotFoundError();
      return { status: 200, body: { data: toEvent(row) } };
    },
  });
}
