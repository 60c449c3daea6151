import { type RawBuilder, sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import { IDLE_TIMEOUT } from '../dashboard/session.service.js';

/** What a rule's predicate may depend on, computed once per run. */
export interface RetentionCutoffs {
  now: Temporal.Instant;
  /** Webhook events (with their deliveries and attempts) created before this are kept no longer. */
  webhooksBefore: Temporal.Instant;
  /**
   * Every transaction with an id below this (an xid8's text) had finished a minute or more ago (retention-job.ts):
   * their availability changes have long been read by every listener that is live (each reads the log several
   * times a second, and one that stops answering for seconds is reopened from scratch). Undefined until then.
   */
  changesFinishedBefore: string | undefined;
}

/**
 * One kind of row that expires: its table, the column that names a row (its primary key: each batch deletes
 * the rows it selected by it), and the predicate a row of `t` (the table's alias) meets once it has expired.
 */
export interface RetentionRule {
  table: string;
  key: string;
  expired: (c: RetentionCutoffs) => RawBuilder<unknown>;
}

/**
 * A webhook event is kept while any of its deliveries may still be attempted (status pending), and for the
 * retention period after it was made; then it goes with its deliveries and their attempts.
 */
const eventExpired = (event: string, c: RetentionCutoffs) =>
  sql`${sql.ref(`${event}.created_at`)} < ${c.webhooksBefore.toString()}::timestamptz
    and not exists (select 1 from webhook_deliveries p where p.event_id = ${sql.ref(`${event}.id`)} and p.status = 'pending')`;

/**
 * Every row that does not live forever, children before their parents (a parent's batch then cascades to
 * nothing, so no delete touches more than a batch of rows). A new kind of expiring row is one more entry.
 */
export const RETENTION_RULES: RetentionRule[] = [
  {
    table: 'webhook_attempts',
    key: 'id',
    expired: (c) =>
      sql`t.delivery_id in (select d.id from webhook_events e join webhook_deliveries d on d.event_id = e.id
                            where ${eventExpired('e', c)})`,
  },
  {
    table: 'webhook_deliveries',
    key: 'id',
    expired: (c) => sql`t.event_id in (select e.id from webhook_events e where ${eventExpired('e', c)})`,
  },
  { table: 'webhook_events', key: 'id', expired: (c) => eventExpired('t', c) },
  // A per-key count whose one-minute window ended over an hour ago: a new window starts from a new row anyway.
  // (rate-limiter-flexible's own timer would delete them in one statement; rate-limit/rate-limiter.ts turns it off.)
  {
    table: 'rate_limits',
    key: 'key',
    expired: (c) => sql`t.expire < ${c.now.epochMilliseconds - 3_600_000}`,
  },
  // A dashboard session past its absolute expiry or idle for longer than the idle timeout: no request can use it.
  {
    table: 'sessions',
    key: 'id',
    expired: (c) =>
      sql`t.absolute_expires_at < ${c.now.toString()}::timestamptz
          or t.last_seen_at < ${c.now.subtract(IDLE_TIMEOUT).toString()}::timestamptz`,
  },
  // The availability change log (migration 0016) is read within moments of each commit; a change is kept a minute
  // past the end of every transaction that could have written it, so no listener's next read can still need it.
  // Several venues of one transaction share its xid, so a batch may delete a few more rows than it selected.
  {
    table: 'availability_changes',
    key: 'xid',
    expired: (c) =>
      c.changesFinishedBefore === undefined ? sql`false` : sql`t.xid < ${c.changesFinishedBefore}::xid8`,
  },
  // Why a session ended matters only while the session could still have been used.
  { table: 'ended_sessions', key: 'token_hash', expired: (c) => sql`t.expires_at < ${c.now.toString()}::timestamptz` },
  // An invitation past its 72 hours, accepted or not: its link already answers 404, so the row serves nothing.
  { table: 'invitations', key: 'id', expired: (c) => sql`t.expires_at < ${c.now.toString()}::timestamptz` },
];
