import { randomUUID } from 'node:crypto';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@spa/contract';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { KeyVault } from '../auth/api-key.js';
import type { Db } from '../db/connect.js';
import { findOrganisationBySlug, lockOrganisation } from '../keys/keys.repository.js';
import { OperatorError } from '../errors/operator-error.js';
import { isoFromDb } from '../lib/instant.js';
import { findVenue } from '../venues/venues.repository.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { failPendingOf, replayEvent } from './deliveries.repository.js';
import { checkWebhookTarget, parseWebhookUrl, UnsafeWebhookUrlError } from './safe-target.js';
import { generateWebhookSecret } from './signature.js';

/** At most 10 endpoints per organisation (docs/decisions.md, "Webhooks"). */
export const MAX_ENDPOINTS = 10;
/** A rotated secret keeps signing beside the new one for this long. */
const ROTATION_OVERLAP = Temporal.Duration.from({ hours: 24 });

export interface AddEndpointInput {
  orgSlug: string;
  url: string;
  venueSlug?: string | undefined;
  events?: string | undefined;
  allowPrivateNetworks: boolean;
  now?: Temporal.Instant;
  audit?: AuditTrail | undefined;
  /** False for a test endpoint (test events only); live by default. */
  livemode?: boolean | undefined;
}

/** `--events a,b` as event types; unknown names are refused with the list of known ones. Unset: every type. */
export function parseEventTypes(list: string | undefined): WebhookEventType[] {
  if (list === undefined) return [];
  const types = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = types.filter((t) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length || types.length === 0)
    throw new OperatorError(
      `${unknown.length ? `Unknown event type ${unknown.join(', ')}` : '--events needs at least one event type'}; the types are ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    );
  return [...new Set(types)] as WebhookEventType[];
}

/** Registers an endpoint after checking its URL and the address it resolves to; the secret is returned once. */
export async function addEndpoint(db: Db, vault: KeyVault, input: AddEndpointInput) {
  const eventTypes = parseEventTypes(input.events);
  const org = await findOrganisationBySlug(db, input.orgSlug);
  if (!org) throw new OperatorError(`No organisation with slug ${input.orgSlug}`);
  let venueId: string | null = null;
  if (input.venueSlug !== undefined) {
    const venue = await findVenue(db, { organisationId: org.id, slug: input.venueSlug });
    if (!venue) throw new OperatorError(`No venue ${input.venueSlug} in organisation ${org.slug}`);
    venueId = venue.id;
  }
  return addEndpointTo(db, vault, org, { ...input, venueId, eventTypes, livemode: input.livemode ?? true });
}

export interface NewEndpoint {
  url: string;
  /** A venue of the organisation (checked by the caller), or null for every venue. */
  venueId: string | null;
  /** Empty: every event type. */
  eventTypes: WebhookEventType[];
  /** Which events it receives: live ones (true) or test ones (false). */
  livemode: boolean;
  allowPrivateNetworks: boolean;
  now?: Temporal.Instant | undefined;
  /** Records `webhook_endpoint.created` in the insert's transaction. */
  audit?: AuditTrail | undefined;
}

/** addEndpoint for an organisation known by id (the dashboard's), the venue already resolved. */
export async function addEndpointTo(db: Db, vault: KeyVault, org: { id: string; slug: string }, input: NewEndpoint) {
  const url = await checkedUrl(input.url, input.allowPrivateNetworks);
  const eventTypes = [...new Set(input.eventTypes)];
  const id = randomUUID();
  const secret = generateWebhookSecret();
  const createdAt = (input.now ?? Temporal.Now.instant()).toString();
  await db.transaction().execute(async (trx) => {
    // Serialises additions of one organisation, so two at once cannot pass the limit together.
    await lockOrganisation(trx, org.id);
    const { count } = await trx
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('organisation_id', '=', org.id)
      .where('removed_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(count) >= MAX_ENDPOINTS) throw new EndpointLimitError(org.slug);
    await trx
      .insertInto('webhook_endpoints')
      .values({
        id,
        organisation_id: org.id,
        venue_id: input.venueId,
        url: url.toString(),
        event_types: eventTypes,
        secret_encrypted: vault.encrypt(secret, id),
        created_at: createdAt,
        livemode: input.livemode,
      })
      .execute();
    await input.audit?.record(trx, {
      organisationId: org.id,
      action: 'webhook_endpoint.created',
      target: { type: 'webhook_endpoint', id, label: url.toString() },
    });
  });
  return { id, secret, url: url.toString(), venueId: input.venueId, eventTypes, createdAt };
}

/** The organisation has as many endpoints as it may have (409 in the dashboard; a refusal in the CLI). */
export class EndpointLimitError extends OperatorError {
  override readonly status = 409;
  constructor(orgSlug: string) {
    super(
      `Organisation ${orgSlug} already has ${MAX_ENDPOINTS} webhook endpoints, the most it may have; remove one first`,
    );
  }
}

/** A webhook URL refused by the safety rules: a 400 naming the `url` field in the dashboard, a refusal in the CLI. */
export class UnsafeUrlRefusal extends OperatorError {
  override body() {
    return { error: this.message, details: [{ path: 'url', message: this.message }] };
  }
}

/** A webhook URL checked against the safety rules (and resolved); an UnsafeUrlRefusal says why not. */
export async function checkedUrl(text: string, allowPrivateNetworks: boolean): Promise<URL> {
  try {
    const url = parseWebhookUrl(text, allowPrivateNetworks);
    await checkWebhookTarget(url, allowPrivateNetworks);
    return url;
  } catch (error) {
    if (error instanceof UnsafeWebhookUrlError) throw new UnsafeUrlRefusal(error.message);
    throw error;
  }
}

/** Every endpoint of the organisation, disabled ones included (removed ones not), without secrets. */
export async function listEndpoints(db: Db, orgSlug: string) {
  const org = await findOrganisationBySlug(db, orgSlug);
  if (!org) throw new OperatorError(`No organisation with slug ${orgSlug}`);
  return listEndpointsOf(db, org.id);
}

/**
 * listEndpoints for an organisation known by id; `livemode` narrows it to one mode's endpoints (the dashboard's),
 * `endpointId` to that one endpoint.
 */
export async function listEndpointsOf(db: Db, organisationId: string, livemode?: boolean, endpointId?: string) {
  let query = db
    .selectFrom('webhook_endpoints as ep')
    .leftJoin('venues as v', 'v.id', 'ep.venue_id')
    .select([
      'ep.id',
      'ep.url',
      'ep.venue_id',
      'v.slug as venue',
      'v.name as venue_name',
      'ep.event_types',
      'ep.created_at',
      'ep.last_success_at',
      'ep.failing_since',
      'ep.disabled_at',
      'ep.previous_secret_expires_at',
      'ep.livemode',
    ])
    .where('ep.organisation_id', '=', organisationId)
    .where('ep.removed_at', 'is', null);
  if (livemode !== undefined) query = query.where('ep.livemode', '=', livemode);
  if (endpointId !== undefined) query = query.where('ep.id', '=', endpointId);
  const rows = await query.orderBy('ep.created_at').orderBy('ep.id').execute();
  const iso = (text: string | null) => (text ? isoFromDb(text) : null);
  return rows.map((r) => ({
    ...r,
    created_at: isoFromDb(r.created_at),
    last_success_at: iso(r.last_success_at),
    failing_since: iso(r.failing_since),
    disabled_at: iso(r.disabled_at),
    previous_secret_expires_at: iso(r.previous_secret_expires_at),
  }));
}

/** Who may touch an endpoint or event (the dashboard's organisation; the CLI: any) and the audit trail of it. */
export interface ChangeOptions {
  organisationId?: string | undefined;
  audit?: AuditTrail | undefined;
  now?: Temporal.Instant | undefined;
}

/**
 * Removes an endpoint: it leaves every list and receives nothing more, and its pending deliveries (one in flight
 * included) fail now, as when an endpoint is disabled. The row stays, with its deliveries and their attempt log, so
 * the history stays readable and an attempt still in flight records its result when it ends.
 */
export async function removeEndpoint(db: Db, id: string, options: ChangeOptions = {}) {
  const at = (options.now ?? Temporal.Now.instant()).toString();
  return db.transaction().execute(async (trx) => {
    let query = trx
      .updateTable('webhook_endpoints')
      .set((eb) => ({ removed_at: at, disabled_at: eb.fn.coalesce('disabled_at', sql<string>`${at}::timestamptz`) }))
      .where('id', '=', id)
      .where('removed_at', 'is', null);
    if (options.organisationId !== undefined) query = query.where('organisation_id', '=', options.organisationId);
    const removed = await query.returning(['url', 'organisation_id']).executeTakeFirst();
    if (!removed) throw new OperatorError(`No webhook endpoint ${id}`);
    await failPendingOf(trx, id, at);
    await options.audit?.record(trx, {
      organisationId: removed.organisation_id,
      action: 'webhook_endpoint.removed',
      target: { type: 'webhook_endpoint', id, label: removed.url },
    });
    return { url: removed.url };
  });
}

/** A new secret, returned once; the current one keeps signing beside it for 24 hours. */
export async function rotateSecret(db: Db, vault: KeyVault, id: string, options: ChangeOptions = {}) {
  const secret = generateWebhookSecret();
  const overlapEnds = (options.now ?? Temporal.Now.instant()).add(ROTATION_OVERLAP);
  return db.transaction().execute(async (trx) => {
    let query = trx
      .updateTable('webhook_endpoints')
      .set((eb) => ({
        previous_secret_encrypted: eb.ref('secret_encrypted'),
        previous_secret_expires_at: overlapEnds.toString(),
        secret_encrypted: vault.encrypt(secret, id),
      }))
      .where('id', '=', id)
      .where('removed_at', 'is', null);
    if (options.organisationId !== undefined) query = query.where('organisation_id', '=', options.organisationId);
    const rotated = await query.returning(['organisation_id', 'url']).executeTakeFirst();
    if (!rotated) throw new OperatorError(`No webhook endpoint ${id}`);
    await options.audit?.record(trx, {
      organisationId: rotated.organisation_id,
      action: 'webhook_endpoint.secret_rotated',
      target: { type: 'webhook_endpoint', id, label: rotated.url },
    });
    return { id, secret, previousValidUntil: overlapEnds.toString() };
  });
}

/** A disabled endpoint back in service: new events reach it again (old failed ones only by replay). */
export async function enableEndpoint(db: Db, id: string) {
  const enabled = await db
    .updateTable('webhook_endpoints')
    .set({ disabled_at: null, failing_since: null })
    .where('id', '=', id)
    .where('removed_at', 'is', null)
    .returning('disabled_at')
    .executeTakeFirst();
  if (!enabled) throw new OperatorError(`No webhook endpoint ${id}`);
}

/** The attempt log of an organisation's deliveries, newest first. */
export async function listDeliveries(
  db: Db,
  input: { orgSlug: string; status?: 'pending' | 'succeeded' | 'failed' | undefined; limit?: number },
) {
  const org = await findOrganisationBySlug(db, input.orgSlug);
  if (!org) throw new OperatorError(`No organisation with slug ${input.orgSlug}`);
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .innerJoin('webhook_endpoints as ep', 'ep.id', 'd.endpoint_id')
    .leftJoin('webhook_attempts as a', 'a.delivery_id', 'd.id')
    .select([
      'e.id as event_id',
      'e.type',
      'ep.url',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'a.attempt',
      'a.started_at',
      'a.status_code',
      'a.duration_ms',
      'a.error',
      'a.response_body',
    ])
    .where('e.organisation_id', '=', org.id);
  if (input.status) query = query.where('d.status', '=', input.status);
  const rows = await query
    .orderBy('e.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .orderBy('a.attempt', 'desc')
    .limit(input.limit ?? 100)
    .execute();
  return rows.map((r) => ({
    ...r,
    next_attempt_at: isoFromDb(r.next_attempt_at),
    started_at: r.started_at ? isoFromDb(r.started_at) : null,
  }));
}

/**
 * `webhooks replay EVENT_ID`: the event is sent again, now, to every endpoint that wants it, or to
 * `options.endpointId` alone (the dashboard's replay of one delivery).
 */
export async function replay(
  db: Db,
  eventId: string,
  options: ChangeOptions & { endpointId?: string | undefined } = {},
) {
  return db.transaction().execute(async (trx) => {
    let query = trx.selectFrom('webhook_events').select(['id', 'type', 'organisation_id']).where('id', '=', eventId);
    if (options.organisationId !== undefined) query = query.where('organisation_id', '=', options.organisationId);
    const event = await query.executeTakeFirst();
    if (!event) throw new OperatorError(`No webhook event ${eventId}`);
    const queued = await replayEvent(trx, event.id, options.now ?? Temporal.Now.instant(), options.endpointId);
    await options.audit?.record(trx, {
      organisationId: event.organisation_id,
      action: 'webhook_delivery.replayed',
      target: { type: 'webhook_event', id: event.id },
    });
    return { id: event.id, type: event.type, queued };
  });
}
