import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { Db } from '../db/connect.js';
import { OperatorError } from '../errors/operator-error.js';

/** The type of a test delivery: not a booking event, so no endpoint subscribes to it; it goes where it is sent. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** A test to a disabled endpoint would wait for ever: the delivery loop skips disabled endpoints. */
export class DisabledEndpointError extends OperatorError {
  override readonly status = 409;
  constructor(id: string) {
    super(`Webhook endpoint ${id} is disabled; it receives nothing, a test included`);
  }
}

/**
 * Queues `{ "type": "webhook.test", "timestamp", "data": {} }` for one endpoint through the outbox, so the delivery
 * loop signs and sends it like every event and its attempts land in the deliveries log. Returns the event id
 * (the `webhook-id` header the receiver sees).
 */
export async function queueTestEvent(
  db: Db,
  endpointId: string,
  options: {
    organisationId?: string;
    audit?: AuditTrail;
    now?: Temporal.Instant;
    /** Queued under this lease (deliverNow's), so the delivery loop leaves the first attempt to its holder. */
    lease?: { token: string; until: Temporal.Instant };
    /** A sample of a booking event instead of `webhook.test`: its type and its `data` (a made-up booking). */
    sample?: { type: string; data: object };
  } = {},
) {
  const now = (options.now ?? Temporal.Now.instant()).round({ smallestUnit: 'second', roundingMode: 'trunc' });
  const timestamp = now.toString();
  const id = randomUUID();
  return db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('webhook_endpoints')
      .select(['id', 'organisation_id', 'disabled_at', 'livemode'])
      .where('id', '=', endpointId)
      .where('removed_at', 'is', null)
      .forUpdate();
    if (options.organisationId !== undefined) query = query.where('organisation_id', '=', options.organisationId);
    const endpoint = await query.executeTakeFirst();
    if (!endpoint) throw new OperatorError(`No webhook endpoint ${endpointId}`);
    if (endpoint.disabled_at !== null) throw new DisabledEndpointError(endpointId);
    await trx
      .insertInto('webhook_events')
      .values({
        id,
        type: options.sample?.type ?? TEST_EVENT_TYPE,
        booking_id: null,
        organisation_id: endpoint.organisation_id,
        venue_id: null,
        endpoint_id: endpoint.id,
        body: JSON.stringify({
          type: options.sample?.type ?? TEST_EVENT_TYPE,
          timestamp,
          livemode: endpoint.livemode,
          data: options.sample?.data ?? {},
        }),
        created_at: timestamp,
        livemode: endpoint.livemode,
      })
      .execute();
    const delivery = await trx
      .insertInto('webhook_deliveries')
      .values({
        event_id: id,
        endpoint_id: endpoint.id,
        next_attempt_at: timestamp,
        livemode: endpoint.livemode,
        lease_token: options.lease?.token ?? null,
        lease_until: options.lease?.until.toString() ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await options.audit?.record(trx, {
      organisationId: endpoint.organisation_id,
      action: 'webhook_endpoint.tested',
      target: { type: 'webhook_endpoint', id: endpoint.id },
    });
    return { eventId: id, deliveryId: Number(delivery.id), timestamp };
  });
}
