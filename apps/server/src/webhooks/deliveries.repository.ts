import { sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { Db } from '../db/connect.js';

/** A delivery this process holds under a lease, with what it needs to send. */
export interface ClaimedDelivery {
  id: number;
  /** Attempts of this run (since the delivery was queued or last replayed), this one included: the schedule's index. */
  attempts: number;
  /** Attempts before the last replay: the log numbers this one attempt_base + attempts. */
  attempt_base: number;
  /** The first attempt of a replay someone asked for. */
  manual: boolean;
  event_id: string;
  event_type: string;
  event_created_at: string;
  body: string;
  endpoint_id: string;
  url: string;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: string | null;
}

/**
 * Takes up to `limit` due deliveries of enabled endpoints for `leaseSeconds`, in one statement: SKIP LOCKED lets
 * several processes claim side by side without waiting on each other, and the lease (not a held transaction,
 * which the embedded database's single connection could not spare) lets another process take over a delivery
 * whose claimer died. The attempt is counted at the claim, so an attempt cut short by a crash still counts.
 */
export async function claimDueDeliveries(
  db: Db,
  input: { now: Temporal.Instant; leaseSeconds: number; token: string; limit: number },
): Promise<ClaimedDelivery[]> {
  const now = input.now.toString();
  const { rows } = await sql<ClaimedDelivery>`
    with due as (
      select d.id, d.manual_next from webhook_deliveries d
      where d.status = 'pending' and d.next_attempt_at <= ${now}::timestamptz
        and (d.lease_until is null or d.lease_until <= ${now}::timestamptz)
      order by d.next_attempt_at
      limit ${input.limit}
      for update of d skip locked
    )
    update webhook_deliveries d
    set lease_until = ${now}::timestamptz + make_interval(secs => ${input.leaseSeconds}),
        lease_token = ${input.token}, attempts = d.attempts + 1, manual_next = false
    from due, webhook_events e, webhook_endpoints ep
    where d.id = due.id and e.id = d.event_id and ep.id = d.endpoint_id and ep.disabled_at is null
    returning d.id, d.attempts, d.attempt_base, due.manual_next as manual, e.id as event_id, e.type as event_type, e.created_at as event_created_at, e.body,
              ep.id as endpoint_id, ep.url, ep.secret_encrypted, ep.previous_secret_encrypted, ep.previous_secret_expires_at
  `.execute(db);
  return rows;
}

/**
 * Takes one pending delivery of an enabled endpoint, due or not, unless another claim holds its lease (a lease
 * taken with this same token, when the delivery was queued, is this claim's own).
 */
export async function claimDelivery(
  db: Db,
  input: { id: number; now: Temporal.Instant; leaseSeconds: number; token: string },
): Promise<ClaimedDelivery | undefined> {
  const now = input.now.toString();
  const { rows } = await sql<ClaimedDelivery>`
    with target as (select id, manual_next from webhook_deliveries where id = ${input.id} for update)
    update webhook_deliveries d
    set lease_until = ${now}::timestamptz + make_interval(secs => ${input.leaseSeconds}),
        lease_token = ${input.token}, attempts = d.attempts + 1, manual_next = false
    from target, webhook_events e, webhook_endpoints ep
    where d.id = target.id and d.status = 'pending'
      and (d.lease_until is null or d.lease_until <= ${now}::timestamptz or d.lease_token = ${input.token})
      and e.id = d.event_id and ep.id = d.endpoint_id and ep.disabled_at is null
    returning d.id, d.attempts, d.attempt_base, target.manual_next as manual, e.id as event_id, e.type as event_type, e.created_at as event_created_at, e.body,
              ep.id as endpoint_id, ep.url, ep.secret_encrypted, ep.previous_secret_encrypted, ep.previous_secret_expires_at
  `.execute(db);
  return rows[0];
}

/**
 * Lets go of every lease: only for a database no other process can hold (the embedded one, behind its DATA_DIR
 * lock), where a lease still standing when the process starts was left by one that died.
 */
export async function releaseAllLeases(db: Db): Promise<number> {
  const { numAffectedRows } = await sql`
    update webhook_deliveries set lease_until = null, lease_token = null
    where status = 'pending' and lease_until is not null
  `.execute(db);
  return Number(numAffectedRows ?? 0);
}

export interface AttemptRecord {
  deliveryId: number;
  endpointId: string;
  /** The attempt's number in the delivery's whole log (replays number on from the last). */
  attempt: number;
  manual: boolean;
  token: string;
  startedAt: Temporal.Instant;
  finishedAt: Temporal.Instant;
  durationMs: number;
  statusCode: number | null;
  responseBody: string | null;
  error: string | null;
  ok: boolean;
  /** When to try again after a failure, or null when the schedule is spent (the delivery is failed). */
  retryAt: Temporal.Instant | null;
}

/**
 * Logs a batch of finished attempts and settles their deliveries and endpoints in one transaction (one
 * connection for the lot, however busy the pool). A claim whose lease another process has taken over since is
 * left to that process (only its log line is written). An endpoint failing since `disableIfFailingSince` or
 * earlier, with no success in the batch, is disabled; returns the ids of the endpoints disabled now.
 */
export async function settleAttempts(
  db: Db,
  records: AttemptRecord[],
  disableIfFailingSince: Temporal.Instant,
): Promise<string[]> {
  if (records.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_attempts')
      .values(
        records.map((r) => ({
          delivery_id: r.deliveryId,
          attempt: r.attempt,
          started_at: r.startedAt.toString(),
          duration_ms: r.durationMs,
          status_code: r.statusCode,
          response_body: r.responseBody,
          error: r.error,
          manual: r.manual,
        })),
      )
      .execute();
    const outcomes = records.map((r) => ({
      id: r.deliveryId,
      token: r.token,
      status: r.ok ? 'succeeded' : r.retryAt ? 'pending' : 'failed',
      retry_at: r.ok ? null : (r.retryAt?.toString() ?? null),
      completed_at: r.ok || !r.retryAt ? r.finishedAt.toString() : null,
    }));
    const { rows: settled } = await sql<{ id: number }>`
      update webhook_deliveries d
      set status = v.status, next_attempt_at = coalesce(v.retry_at, d.next_attempt_at), completed_at = v.completed_at,
          lease_until = null, lease_token = null
      from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb)
        as v(id bigint, token uuid, status text, retry_at timestamptz, completed_at timestamptz)
      where d.id = v.id and d.lease_token = v.token
      returning d.id
    `.execute(trx);
    const mine = new Set(settled.map((row) => Number(row.id)));
    const succeeded = new Map<string, string>();
    const failed = new Map<string, string>();
    for (const r of records.filter((x) => mine.has(x.deliveryId))) {
      const at = r.finishedAt.toString();
      if (r.ok) succeeded.set(r.endpointId, at);
      else if (!failed.has(r.endpointId)) failed.set(r.endpointId, at);
    }
    for (const [endpointId, at] of succeeded) {
      // At most once a minute per endpoint while it succeeds: every batch would otherwise rewrite its row.
      await trx
        .updateTable('webhook_endpoints')
        .set({ last_success_at: at, failing_since: null })
        .where('id', '=', endpointId)
        .where((eb) =>
          eb.or([
            eb('failing_since', 'is not', null),
            eb('last_success_at', 'is', null),
            eb('last_success_at', '<', sql<string>`${at}::timestamptz - interval '1 minute'`),
          ]),
        )
        .execute();
    }
    const disabled: string[] = [];
    for (const [endpointId, at] of failed) {
      if (succeeded.has(endpointId)) continue;
      const endpoint = await trx
        .updateTable('webhook_endpoints')
        .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', sql<string>`${at}::timestamptz`) }))
        .where('id', '=', endpointId)
        .returning(
          sql<boolean>`disabled_at is null and failing_since <= ${disableIfFailingSince.toString()}::timestamptz`.as(
            'expired',
          ),
        )
        .executeTakeFirst();
      if (!endpoint?.expired) continue;
      await disableEndpoint(trx, endpointId, at);
      disabled.push(endpointId);
    }
    return disabled;
  });
}

/** Stops an endpoint: no new deliveries, and its pending ones fail now rather than wait for a dead receiver. */
export async function disableEndpoint(db: Db, endpointId: string, at: string) {
  await db.updateTable('webhook_endpoints').set({ disabled_at: at }).where('id', '=', endpointId).execute();
  await failPendingOf(db, endpointId, at);
}

/**
 * The endpoint's pending deliveries fail now. One in flight loses its lease, so its attempt, when it ends, is
 * logged without settling the delivery again.
 */
export async function failPendingOf(db: Db, endpointId: string, at: string) {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', completed_at: at, lease_until: null, lease_token: null })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}

/**
 * Replay: the event is due again, now, at every enabled endpoint of its organisation that wants it, or at its one
 * endpoint for a test event; with `endpointId`, at that endpoint alone, where it was delivered before (whatever its
 * filters say now). A delivery that already exists starts a new run of the retry schedule; its attempts are
 * numbered on from the last (the log keeps its history) and the first is marked manual. Returns how many queued.
 */
export async function replayEvent(
  db: Db,
  eventId: string,
  now: Temporal.Instant,
  endpointId?: string,
): Promise<number> {
  const only = endpointId ?? null;
  const { rows } = await sql<{ id: number }>`
    insert into webhook_deliveries (event_id, endpoint_id, next_attempt_at, manual_next)
    select e.id, ep.id, ${now.toString()}::timestamptz, true
    from webhook_events e join webhook_endpoints ep on ep.organisation_id = e.organisation_id
    where e.id = ${eventId} and ep.disabled_at is null
      and case when ${only}::uuid is not null
            then ep.id = ${only}::uuid
              and exists (select 1 from webhook_deliveries x where x.event_id = e.id and x.endpoint_id = ep.id)
          when e.endpoint_id is not null then ep.id = e.endpoint_id
          else (ep.venue_id is null or ep.venue_id = e.venue_id)
            and (cardinality(ep.event_types) = 0 or e.type = any(ep.event_types)) end
    on conflict (event_id, endpoint_id) do update
      set status = 'pending', attempt_base = webhook_deliveries.attempt_base + webhook_deliveries.attempts,
          attempts = 0, manual_next = true, next_attempt_at = excluded.next_attempt_at,
          lease_until = null, lease_token = null, completed_at = null
    returning id
  `.execute(db);
  return rows.length;
}

/** Every failed delivery of one endpoint, replayed to it (as replayEvent with that endpoint); how many queued. */
export async function replayFailedOf(db: Db, endpointId: string, now: Temporal.Instant): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    update webhook_deliveries d
    set status = 'pending', attempt_base = d.attempt_base + d.attempts, attempts = 0, manual_next = true,
        next_attempt_at = ${now.toString()}::timestamptz, lease_until = null, lease_token = null, completed_at = null
    from webhook_endpoints ep
    where d.endpoint_id = ${endpointId} and d.status = 'failed' and ep.id = d.endpoint_id and ep.disabled_at is null
    returning d.id
  `.execute(db);
  return rows.length;
}
