import type { WebhookDelivery, WebhookDeliveryDetail } from '@spa/contract/dashboard';
import type { z } from 'zod';
import { isoFromDb } from '../lib/instant.js';
import type { DeliveryLogRow } from '../webhooks/delivery-log.repository.js';

type Delivery = z.infer<typeof WebhookDelivery>;

/** The one place a delivery log row becomes the contract's WebhookDelivery. */
export function toDelivery(row: DeliveryLogRow): Delivery {
  return {
    event_id: row.event_id,
    event_type: row.event_type as Delivery['event_type'],
    booking_id: row.booking_id,
    endpoint: { id: row.endpoint_id, url: row.url },
    status: row.status,
    created_at: isoFromDb(row.event_created_at),
    next_attempt_at: row.status === 'pending' ? isoFromDb(row.next_attempt_at) : null,
    completed_at: row.completed_at ? isoFromDb(row.completed_at) : null,
    attempts: row.attempt_log.map((a) => ({
      attempt: a.attempt,
      attempted_at: isoFromDb(a.started_at),
      status_code: a.status_code,
      duration_ms: a.duration_ms,
      error: a.error,
      manual: a.manual,
    })),
  };
}

/** A delivery with the body sent and each attempt's answer (the deliveries page's details). */
export function toDeliveryDetail(
  row: DeliveryLogRow & {
    body: string;
    attempt_log: (DeliveryLogRow['attempt_log'][number] & { response_body: string | null })[];
  },
): z.infer<typeof WebhookDeliveryDetail> {
  const delivery = toDelivery(row);
  return {
    ...delivery,
    request_body: row.body,
    attempts: delivery.attempts.map((attempt, i) => ({ ...attempt, response_body: row.attempt_log[i]!.response_body })),
  };
}
