import type { Event, WebhookEvent } from '@spa/contract';
import type { z } from 'zod';
import type { FeedEventRow } from '../webhooks/index.js';

/**
 * Whether an event is live: every event is until test mode keeps events of its own. The one place that says it,
 * so giving events a mode changes this line (to the row's own column) and nothing else.
 */
const livemodeOf = (_row: FeedEventRow): boolean => true;

/** An outbox row as the feed shows it: the webhook body as it was sent (type, timestamp, data), its id and mode. */
export function toEvent(row: FeedEventRow): z.infer<typeof Event> {
  const body = JSON.parse(row.body) as WebhookEvent;
  return { id: row.id, livemode: livemodeOf(row), ...body };
}
