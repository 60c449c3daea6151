import { CreateBookingBody, type Scope } from '@spa/contract';
import { sql } from 'kysely';
import type { Principal } from '../src/auth/principal.js';
import { createBooking } from '../src/bookings/create-booking.js';
import type { Db } from '../src/db/connect.js';
import type { Temporal } from 'temporal-polyfill';
import { ms, summary, verdict } from './stats.js';

/**
 * Statistics for the planner on the bench's freshly filled database: without them it plans the snapshot statement
 * for empty tables and reads thousands of blocks where fifty do.
 */
export async function analyseDatabase(db: Db): Promise<void> {
  await sql`analyze`.execute(db);
}

export interface FloorResult {
  created: number;
  seconds: number;
  latencies: number[];
}

/**
 * The create endpoint's same-work floor: the statements a create sends (createBooking itself: the venue read, the
 * snapshot with its locks, the decision, the inserts, the commit), called straight over the same pool by `clients`
 * concurrent callers, with no HTTP, authentication, validation, logging or cache around them. Bodies are parsed by
 * the contract beforehand, as the route receives them.
 */
export async function measureCreateFloor(options: {
  db: Db;
  organisationId: string;
  venueId: string;
  bodies: object[];
  clients: number;
  now: Temporal.Instant;
}): Promise<FloorResult> {
  const principal: Principal = {
    keyId: 'floor',
    organisationId: options.organisationId,
    venueId: null,
    scopes: new Set<Scope>(['bookings:write']),
    rateLimitPerMin: null,
  };
  const parsed = options.bodies.map((body) => CreateBookingBody.parse(body));
  const latencies: number[] = [];
  let next = 0;
  let created = 0;
  const caller = async () => {
    while (next < parsed.length) {
      const body = parsed[next++]!;
      const started = performance.now();
      try {
        await createBooking({ db: options.db, principal, venueRef: options.venueId, body, now: options.now });
        created++;
      } catch {
        // A slot already full: the 409 the endpoint answers, as cheap here as there.
      }
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.clients }, caller));
  return { created, seconds: (performance.now() - started) / 1000, latencies };
}

/** The endpoint beside its floor: creates/s and p99 of each, and the endpoint's share of the floor's rate. */
export function floorLines(endpoint: { rate: number; p99: number }, floor: FloorResult): string[] {
  const rate = floor.created / floor.seconds;
  const p99 = summary(floor.latencies).p99;
  const share = (endpoint.rate / rate) * 100;
  return [
    `  same-work floor (createBooking over the pool, no HTTP): ${rate.toFixed(0)} creates/s; p99 ${ms(p99)}`,
    `  endpoint / floor: ${share.toFixed(0)}% of the creates/s, p99 ${(endpoint.p99 / p99).toFixed(2)}x`,
    `  ${verdict("endpoint's share of its floor", share, 80, '%', true)}`,
  ];
}
