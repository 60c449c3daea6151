import type { Event, WebhookEvent } from '@spa/contract';
import type { z } from 'zod';
import type { FeedEventRow } from '../webhooks/index.js';

/** An outbox row as the feed shows it: the webhook body as it was sent (type, timestamp, data), its id and mode. */
export function toEvent(row: FeedEventRow): z.infer<typeof Event> {
  const body = JSON.parse(row.body) as WebhookEvent;
  // The row's column decides (bodies written before events had a mode carry no `livemode`), in the schema's order.
  const { livemode: _fromBody, ...rest } = body;
  return { id: row.id, livemode: row.livemode, ...rest };
}
