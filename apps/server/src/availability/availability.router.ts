import { Stream } from 'node:stream';
import { contract } from '@spa/contract';
import { initServer } from '@ts-rest/express';
import type { Response } from 'express';
import type { RouteDeps } from '../app-deps.js';
import type { Db } from '../db/connect.js';
import { principalOf } from '../auth/principal.js';
import { VariantNotFoundError } from '../errors/domain-errors.js';
import { resolveVenueVariant } from '../venues/venue-access.js';
import { periodOf } from './availability-period.js';
import { computeDays, loadSnapshot, selectSnapshotRow, snapshotQuery, toSnapshotVariant } from '../scheduling/index.js';
import { availabilityData, encodeAnswer, freshUntilMs } from './availability-answer.js';
import type { FreshAnswer } from './availability-cache.js';

type Answer = { data: ReturnType<typeof availabilityData> };

export function availabilityRouter({
  db,
  reads,
  clock,
  availabilityPool: pool,
  availabilityCache: cache,
  validateResponses,
}: RouteDeps) {
  return initServer().router(contract.availability, {
    variant: async ({ params, query, res }) => {
      // The request's arrival: what the cache holds must reflect every commit before it.
      const since = performance.now();
      const period = periodOf(query);
      const principal = principalOf(res);
      // With the cache, the venue row is read (rarely: once per venue change) on the primary, as a replica's
      // could predate the change notice that emptied the entry; without it, where catalogue reads go.
      const { venue, variant } = cache
        ? await resolveVenueVariant(db, principal, params.venue_id, params.variant_id, cache, since)
        : await reads.read((readDb) => resolveVenueVariant(readDb, principal, params.venue_id, params.variant_id));
      if (!variant) throw new VariantNotFoundError();
      const dates = period.dates;
      const now = clock.now();
      // One answer per (mode, variant, guest count, venue-local dates) of the venue: the modes' holds differ. The
      // venue's zone turns those dates into instants when computed, so day boundaries (and DST) are the computation's.
      const mode = principal.livemode ? 'live' : 'test';
      const key = `${mode}|${variant.id}|${query.guest_count}|${dates.mode}|${dates.from}|${dates.to}`;
      // A hit first: it needs none of what a computation does below.
      const held = await cache?.heldAnswer(venue.id, key, now.epochMilliseconds, since);
      if (held) return { status: 200, body: jsonBytes(res, held) };

      const snapshotVariant = toSnapshotVariant(variant);
      const ids = { venue_id: venue.id, treatment_id: variant.treatment_id, variant_id: variant.id };
      // A snapshot on a replica may trail the primary by up to reads.maxStaleMs: the booking itself is decided on
      // the primary, so a stale slot costs a 409, never a double booking. An answer the cache would keep is read on
      // the primary while the venue changed within that time, so no kept answer predates a notice that reached us.
      const snapshotReads = <T>(run: (readDb: Db) => Promise<T>): Promise<T> =>
        cache?.changedWithin(venue.id, reads.maxStaleMs) ? run(db) : reads.read(run);

      /** Heavy answers on the worker threads, light ones here; either way the 200's bytes and how long they hold. */
      const compute = async (): Promise<FreshAnswer> => {
        if (pool?.takes(venue, period)) {
          return pool.answer(
            principal.keyId,
            async () => ({
              venue,
              variant: snapshotVariant,
              row: await snapshotReads((readDb) =>
                selectSnapshotRow(readDb, snapshotQuery(venue, snapshotVariant, period, principal.livemode)),
              ),
              period: dates,
              now: now.toString(),
              guestCount: query.guest_count,
            }),
            clientGone(res),
          );
        }
        const snapshot = await snapshotReads((readDb) =>
          loadSnapshot(readDb, venue, snapshotVariant, period, principal.livemode),
        );
        const days = computeDays(snapshot, period, now, query.guest_count);
        const bytes = encodeAnswer({ data: availabilityData(ids, dates, days) }, validateResponses);
        return {
          bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          freshUntilMs: freshUntilMs(days, snapshotVariant.leadTimeMinutes),
        };
      };

      if (cache) {
        const bytes = await cache.answer(venue.id, key, now.epochMilliseconds, compute, since);
        return { status: 200, body: jsonBytes(res, bytes) };
      }
      if (pool?.takes(venue, period)) return { status: 200, body: jsonBytes(res, (await compute()).bytes) };
      const snapshot = await reads.read((readDb) =>
        loadSnapshot(readDb, venue, snapshotVariant, period, principal.livemode),
      );
      const days = computeDays(snapshot, period, now, query.guest_count);
      return { status: 200, body: { data: availabilityData(ids, dates, days) } };
    },
  });
}

/** Aborted when the connection closes before the answer is written (a client that gave up while waiting). */
function clientGone(res: Response): AbortSignal {
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  return gone.signal;
}

/**
 * The answer's bytes (from the worker or the cache), encoded as `res.json` would (and checked against the contract
 * when the app's response policy asks for it: RESPONSE_VALIDATION), with the headers `res.json` sets. ts-rest
 * pipes a stream body as it is: the one way past its response path (which would check and encode the answer again
 * on the event loop) without leaving the route.
 */
function jsonBytes(res: Response, bytes: Buffer): Answer {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', bytes.byteLength);
  return new BytesBody(bytes) as unknown as Answer;
}

/**
 * A stream in name only (ts-rest and http/response-check.ts tell stream bodies by `instanceof Stream`): its pipe
 * writes the bytes with one `end`, headers and body in a single write, where a Readable cost a stream's machinery
 * and a second write per answer (measured: ~5% of a warm cached answer's CPU, docs/performance.md "Scale").
 */
class BytesBody extends Stream {
  constructor(private readonly bytes: Buffer) {
    super();
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T): T {
    destination.end(this.bytes);
    return destination;
  }
}
