import { sql } from 'kysely';
import type { Db } from '../db/connect.js';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryFilter {
  endpointId?: string | undefined;
  status?: DeliveryStatus | undefined;
  eventType?: string | undefined;
  bookingId?: string | undefined;
  /** An event id or a booking id. */
  eventOrBookingId?: string | undefined;
}

/**
 * An organisation's deliveries, newest event first, each with its attempts (oldest first): the page of deliveries in
 * one query, their attempts in a second, and the total in a third beside it.
 */
export async function listDeliveriesOf(
  db: Db,
  organisationId: string,
  livemode: boolean,
  filter: DeliveryFilter,
  page: { offset: number; limit: number },
) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .innerJoin('webhook_endpoints as ep', 'ep.id', 'd.endpoint_id')
    .where('e.organisation_id', '=', organisationId)
    .where('e.livemode', '=', livemode);
  if (filter.endpointId !== undefined) query = query.where('d.endpoint_id', '=', filter.endpointId);
  if (filter.status !== undefined) query = query.where('d.status', '=', filter.status);
  if (filter.eventType !== undefined) query = query.where('e.type', '=', filter.eventType);
  if (filter.bookingId !== undefined) query = query.where('e.booking_id', '=', filter.bookingId);
  const id = filter.eventOrBookingId;
  if (id !== undefined) query = query.where((eb) => eb.or([eb('e.id', '=', id), eb('e.booking_id', '=', id)]));
  const [deliveries, total] = await Promise.all([
    query
      .select([
        'd.id',
        'e.id as event_id',
        'e.type as event_type',
        'e.booking_id',
        'e.created_at as event_created_at',
        'd.endpoint_id',
        'ep.url',
        'd.status',
        'd.next_attempt_at',
        'd.completed_at',
      ])
      .orderBy('e.created_at', 'desc')
      .orderBy('d.id', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  const attempts =
    deliveries.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .select(['delivery_id', 'attempt', 'started_at', 'status_code', 'duration_ms', 'error', 'manual'])
          .where(
            'delivery_id',
            'in',
            deliveries.map((d) => d.id),
          )
          .orderBy('delivery_id')
          .orderBy('id')
          .execute();
  return {
    rows: deliveries.map((d) => ({
      ...d,
      attempt_log: attempts.filter((a) => Number(a.delivery_id) === Number(d.id)),
    })),
    total: Number(total.count),
  };
}

export type DeliveryLogRow = Awaited<ReturnType<typeof listDeliveriesOf>>['rows'][number];

/** Deliveries of the organisation's endpoints settled since `since`, counted per endpoint and outcome. */
export function countSettledSince(db: Db, organisationId: string, livemode: boolean, since: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as ep', 'ep.id', 'd.endpoint_id')
    .select(['d.endpoint_id', 'd.status', (eb) => eb.fn.countAll<string>().as('count')])
    .where('ep.organisation_id', '=', organisationId)
    .where('ep.livemode', '=', livemode)
    .where('d.status', 'in', ['succeeded', 'failed'])
    .where('d.completed_at', '>=', since)
    .groupBy(['d.endpoint_id', 'd.status'])
    .execute();
}

/** One delivery of an organisation's event to one endpoint, with the body sent and each attempt's answer. */
export async function findDeliveryOf(
  db: Db,
  organisationId: string,
  livemode: boolean,
  eventId: string,
  endpointId: string,
) {
  const delivery = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .innerJoin('webhook_endpoints as ep', 'ep.id', 'd.endpoint_id')
    .select([
      'd.id',
      'e.id as event_id',
      'e.type as event_type',
      'e.booking_id',
      'e.created_at as event_created_at',
      'e.body',
      'd.endpoint_id',
      'ep.url',
      'd.status',
      'd.next_attempt_at',
      'd.completed_at',
    ])
    .where('e.organisation_id', '=', organisationId)
    .where('e.livemode', '=', livemode)
    .where('d.event_id', '=', eventId)
    .where('d.endpoint_id', '=', endpointId)
    .executeTakeFirst();
  if (!delivery) return undefined;
  const attempts = await db
    .selectFrom('webhook_attempts')
    .select(['delivery_id', 'attempt', 'started_at', 'status_code', 'duration_ms', 'error', 'manual', 'response_body'])
    .where('delivery_id', '=', delivery.id)
    .orderBy('id')
    .execute();
  return { ...delivery, attempt_log: attempts };
}

/** Settled deliveries of one endpoint per UTC day since `since`, by outcome. */
export function countDailySince(db: Db, endpointId: string, since: string) {
  return db
    .selectFrom('webhook_deliveries')
    .select([
      sql<string>`to_char(completed_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'),
      'status',
      (eb) => eb.fn.countAll<string>().as('count'),
    ])
    .where('endpoint_id', '=', endpointId)
    .where('status', 'in', ['succeeded', 'failed'])
    .where('completed_at', '>=', since)
    .groupBy([sql`1`, 'status'])
    .execute();
}
