import { Readable } from 'node:stream';
import { contract } from '@spa/contract';
import { initServer } from '@ts-rest/express';
import type { Response } from 'express';
import type { RouteDeps } from '../app-deps.js';
import { principalOf } from '../auth/principal.js';
import { VariantNotFoundError } from '../errors/domain-errors.js';
import { resolveVenueVariant } from '../venues/venue-access.js';
import { periodOf } from './availability-period.js';
import { computeDays, loadSnapshot, selectSnapshotRow, snapshotQuery, toSnapshotVariant } from '../scheduling/index.js';
import { availabilityData } from './availability-answer.js';

type Answer = { data: ReturnType<typeof availabilityData> };

export function availabilityRouter({ reads, clock, availabilityPool: pool }: RouteDeps) {
  return initServer().router(contract.availability, {
    variant: async ({ params, query, res }) => {
      const period = periodOf(query);
      const principal = principalOf(res);
      const { venue, variant } = await reads.read((db) =>
        resolveVenueVariant(db, principal, params.venue_id, params.variant_id),
      );
      if (!variant) throw new VariantNotFoundError();
      const snapshotVariant = toSnapshotVariant(variant);
      const dates = { mode: period.mode, from: period.from.toString(), to: period.to.toString() };

      if (pool?.takes(venue, period)) {
        const bytes = await pool.answer(
          principal.keyId,
          async () => ({
            venue,
            variant: snapshotVariant,
            row: await reads.read((db) => selectSnapshotRow(db, snapshotQuery(venue, snapshotVariant, period))),
            period: dates,
            now: clock.now().toString(),
            guestCount: query.guest_count,
          }),
          clientGone(res),
        );
        return { status: 200, body: jsonBytes(res, bytes) };
      }

      // A replica's snapshot may trail the primary by up to DATABASE_REPLICA_MAX_LAG_MS: the booking itself is
      // decided on the primary, so a stale slot costs a 409, never a double booking.
      const snapshot = await reads.read((db) => loadSnapshot(db, venue, snapshotVariant, period));
      const days = computeDays(snapshot, period, clock.now(), query.guest_count);
      const ids = { venue_id: venue.id, treatment_id: variant.treatment_id, variant_id: variant.id };
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
 * The worker's bytes, encoded as `res.json` would (and checked against the contract when the app's response
 * policy asks for it: the workers follow RESPONSE_VALIDATION, availability-pool.ts), with the headers
 * `res.json` sets. ts-rest pipes a stream body as it is: the one way past its response path (which would check
 * and encode ~1 MB again on the event loop) without leaving the route.
 */
function jsonBytes(res: Response, bytes: Buffer): Answer {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', bytes.byteLength);
  return Readable.from([bytes]) as unknown as Answer;
}
