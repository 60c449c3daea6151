import { type Insertable, type Transaction, sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { OrganisationScope } from '../auth/organisation-scope.js';
import type { Db } from '../db/connect.js';
import type { BookingTable, Database } from '../db/schema.js';
import { type SnapshotQuery, type SnapshotRow, selectSnapshotRow, snapshotSql } from '../scheduling/index.js';
import { advisoryLockKey } from '../db/advisory-lock.js';
import { tstzrange } from '../lib/instant.js';
import { BOOKING_COLUMNS, type BookingRow } from '../db/columns.js';

type Trx = Transaction<Database>;

/** The booking an external id names at a venue, in one mode (each mode has its own external ids). */
export async function findBookingByExternalId(db: Db, venueId: string, livemode: boolean, externalId: string) {
  return db
    .selectFrom('bookings')
    .select(BOOKING_COLUMNS)
    .where('venue_id', '=', venueId)
    .where('livemode', '=', livemode)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}

/**
 * A booking with what the steps on one booking need of its venue: the organisation (the key's or the dashboard
 * scope's boundary), the cancellation policy and the inter-venue buffer, and the assigned therapist. `lock` takes
 * the booking's row lock (FOR UPDATE OF bookings): status changes of one booking are serialised.
 */
function bookingWithVenue(db: Db, lock: boolean) {
  const query = db
    .selectFrom('bookings')
    .innerJoin('venues', 'venues.id', 'bookings.venue_id')
    .select([
      ...BOOKING_COLUMNS.map((c) => `bookings.${c}` as const),
      'bookings.therapist_id',
      'venues.organisation_id',
      'venues.cancellation_policy',
      'venues.inter_venue_buffer_minutes',
    ]);
  return lock ? query.forUpdate('bookings') : query;
}

export type BookingWithVenue = NonNullable<Awaited<ReturnType<typeof findBookingById>>>;

export async function findBookingById(db: Db, id: string, options: { lock?: boolean } = {}) {
  return bookingWithVenue(db, options.lock ?? false)
    .where('bookings.id', '=', id)
    .executeTakeFirst();
}

/** Bookings with this external id in a key's scope (the `ext:` form of a booking reference), at most 2. */
export async function findVisibleBookingsByExternalId(
  db: Db,
  scope: OrganisationScope,
  externalId: string,
  options: { lock?: boolean } = {},
) {
  let query = bookingWithVenue(db, options.lock ?? false)
    .where('bookings.external_id', '=', externalId)
    .where('venues.organisation_id', '=', scope.organisationId)
    .where('bookings.livemode', '=', scope.livemode);
  if (scope.venueIds) query = query.where('bookings.venue_id', 'in', scope.venueIds);
  return query.limit(2).execute();
}

/** A live booking cancelled, as the cancel route decided it; returns the row as it is now. */
export async function markCancelled(
  trx: Trx,
  id: string,
  c: {
    now: Temporal.Instant;
    cancelledBy: NonNullable<BookingRow['cancelled_by']>;
    reason: string;
    feeMinor: number;
    policyText: string;
  },
) {
  return trx
    .updateTable('bookings')
    .set({
      status: 'cancelled',
      cancelled_at: c.now.toString(),
      cancelled_by: c.cancelledBy,
      cancellation_reason: c.reason,
      cancellation_fee_minor: c.feeMinor,
      cancellation_policy_text: c.policyText,
      updated_at: c.now.toString(),
    })
    .where('id', '=', id)
    .returning(BOOKING_COLUMNS)
    .executeTakeFirstOrThrow();
}

/**
 * The booking re-check's read, in one round trip: the snapshot of its slot and, with an external_id, the
 * idempotency key's in-flight guard and replay check. The guard is a transaction-scoped advisory lock on
 * (venue, external_id): a request that cannot take it is a concurrent duplicate (409 duplicate_external_id).
 */
export async function readSnapshotAndClaim(
  trx: Trx,
  query: SnapshotQuery,
  externalId: string | null,
): Promise<{ row: SnapshotRow; claim: { locked: boolean; existingId: string | null } }> {
  if (!externalId) return { row: await selectSnapshotRow(trx, query), claim: { locked: true, existingId: null } };
  const { rows } = await sql<SnapshotRow & { claim_locked: boolean; claim_existing_id: string | null }>`
    select s.*,
           pg_try_advisory_xact_lock(${advisoryLockKey(`booking-external-id:${query.venueId}:${query.livemode}:${externalId}`)}) as claim_locked,
           (select id from bookings where venue_id = ${query.venueId} and livemode = ${query.livemode} and external_id = ${externalId}) as claim_existing_id
    from (${snapshotSql(query)}) s
  `.execute(trx);
  const { claim_locked, claim_existing_id, ...row } = rows[0]!;
  return { row, claim: { locked: claim_locked, existingId: claim_existing_id } };
}

const HOUR = 3_600_000;

/** The lock keys of a hold: one per (resource, hour) the range touches. */
export function holdKeys(
  kind: 'room' | 'therapist',
  id: string,
  range: { start: Temporal.Instant; end: Temporal.Instant },
): string[] {
  const keys: string[] = [];
  for (let hour = Math.floor(range.start.epochMilliseconds / HOUR); hour * HOUR < range.end.epochMilliseconds; hour++)
    keys.push(`${kind}:${id}:${hour}`);
  return keys;
}

/**
 * Serialises the bookings that could collide, and only those: a transaction-scoped lock per (room or therapist,
 * hour) of the holds it is about to write (therapists' ranges widened by the inter-venue buffer, a rule across
 * venues that no exclusion constraint can express). Two colliding bookings share a key, so the second waits for
 * the first to commit and then meets its rows at once, instead of both waiting on each other inside the
 * exclusion constraints (a deadlock PostgreSQL only breaks after a second). Keys are taken in sorted order,
 * so lock waits never form a cycle.
 */
export async function lockHolds(trx: Trx, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  // The line of creates for one slot is this lock's purpose: it waits as long as a statement may (the statement
  // timeout), not the lock_timeout meant for tables and rows locked by something else (db/connect.ts).
  await sql`set local lock_timeout = 0`.execute(trx);
  await sql`select pg_advisory_xact_lock(${advisoryLockKey(sql.ref('k.key'))})
    from unnest(${sql.val([...new Set(keys)].sort())}::text[]) with ordinality as k(key, n) order by n`.execute(trx);
}

/**
 * The inter-venue buffer rule, written once: a reservation `h` at another venue than `venueId` overlapping
 * `range` (the booking's [start, end) widened by the buffer). A WHERE condition on therapist_reservations h.
 */
function elsewhere(venueId: string, range: string) {
  return sql`h.venue_id <> ${venueId} and h.during && ${range}::tstzrange`;
}

/** Reservations of `therapistIds` in one mode held elsewhere (see `elsewhere`). A FROM/WHERE fragment. */
function heldElsewhere(therapistIds: string[], livemode: boolean, venueId: string, range: string) {
  return sql`from therapist_reservations h
    where h.therapist_id = any(${therapistIds}::uuid[]) and h.livemode = ${livemode} and ${elsewhere(venueId, range)}`;
}

/** Therapists among `therapistIds` holding a reservation at another venue within the buffer around [start, end). */
export async function therapistsBusyElsewhere(
  trx: Trx,
  input: {
    therapistIds: string[];
    venueId: string;
    livemode: boolean;
    start: Temporal.Instant;
    end: Temporal.Instant;
    bufferMinutes: number;
  },
): Promise<string[]> {
  if (input.therapistIds.length === 0) return [];
  const range = tstzrange(
    input.start.subtract({ minutes: input.bufferMinutes }),
    input.end.add({ minutes: input.bufferMinutes }),
  );
  const { rows } = await sql<{
    therapist_id: string;
  }>`select distinct h.therapist_id ${heldElsewhere(input.therapistIds, input.livemode, input.venueId, range)}`.execute(
    trx,
  );
  return rows.map((r) => r.therapist_id);
}

export type InsertBookingOutcome = { outcome: 'booked'; booking: BookingRow } | { outcome: 'therapist_busy_elsewhere' };

/** The holds of one booking, as every writer of holds writes them (holds.ts builds them). */
export interface Holds {
  /** The booking's mode: its holds conflict only with holds of the same mode. */
  livemode: boolean;
  roomId: string;
  roomRange: string;
  therapistIds: string[];
  therapistRange: string;
  /**
   * The therapists' range widened by the inter-venue buffer, or null without a buffer: the holds are written
   * only if none of the therapists holds a reservation at another venue within it. The hold locks taken before
   * the statement make the check safe (its snapshot starts after the locks are held).
   */
  elsewhereRange: string | null;
}

export interface NewBooking extends Holds {
  guest: {
    organisationId: string;
    livemode: boolean;
    firstName: string;
    lastName: string;
    email: string;
    phone: string | null;
    language: string;
  };
  booking: Omit<Insertable<BookingTable>, 'customer_id'> & { id: string };
  offeredTherapistIds: string[];
}

/** True when one of the therapists is held at another venue within the buffer (false without a buffer). */
function busyElsewhere(holds: Holds, venueId: string) {
  return holds.elsewhereRange
    ? sql`exists (select 1 ${heldElsewhere(holds.therapistIds, holds.livemode, venueId, holds.elsewhereRange)})`
    : sql`false`;
}

/**
 * The hold inserts of the booking a `booking` CTE returns (its id and venue_id), as CTEs: the room held
 * through its turnover, each therapist over [start, end); the exclusion constraints have the last word.
 */
function holdInserts(holds: Holds) {
  return sql`room_hold as (
      insert into room_reservations (booking_id, room_id, during, livemode)
      select booking.id, ${holds.roomId}, ${holds.roomRange}::tstzrange, ${holds.livemode} from booking
    ), therapist_holds as (
      insert into therapist_reservations (booking_id, therapist_id, venue_id, during, livemode)
      select booking.id, t.id, booking.venue_id, ${holds.therapistRange}::tstzrange, ${holds.livemode}
      from booking, unnest(${holds.therapistIds}::uuid[]) as t(id)
    )`;
}

/**
 * The booking and everything it writes, in one statement (each round trip costs more than the SQL): the guest
 * found or created as a customer by (organisation, lower-cased email), so concurrent bookings of one new guest
 * share one row; the booking; its room and therapist holds, where the exclusion constraints have the last word;
 * and the broadcast offers to every qualified free therapist. Nothing is written when a therapist is busy at
 * another venue within the buffer.
 */
export async function insertBookingWithHolds(trx: Trx, n: NewBooking): Promise<InsertBookingOutcome> {
  const b = n.booking;
  const { rows } = await sql<BookingRow>`
    with customer as (
      insert into customers (id, organisation_id, livemode, first_name, last_name, email, phone, language)
      select gen_random_uuid(), ${n.guest.organisationId}, ${n.guest.livemode}, ${n.guest.firstName}, ${n.guest.lastName}, ${n.guest.email}, ${n.guest.phone}, ${n.guest.language}
      where not ${busyElsewhere(n, b.venue_id)}
      on conflict (organisation_id, livemode, lower(email)) do update set email = customers.email
      returning id
    ), booking as (
      insert into bookings (id, venue_id, treatment_id, variant_id, customer_id, status, start_at, end_at, guest_count, notes,
                            external_reference, external_id, client_type, total_price_minor, currency, created_at, updated_at, livemode)
      select ${b.id}, ${b.venue_id}, ${b.treatment_id}, ${b.variant_id}, customer.id, ${b.status}, ${b.start_at}, ${b.end_at}, ${b.guest_count},
             ${b.notes}, ${b.external_reference}, ${b.external_id}, ${b.client_type}, ${b.total_price_minor}, ${b.currency}, ${b.created_at}, ${b.updated_at},
             ${n.livemode}
      from customer
      returning ${sql.join(BOOKING_COLUMNS.map((c) => sql.ref(c)))}
    ), ${holdInserts(n)}, offers as (
      insert into booking_offers (booking_id, therapist_id) select booking.id, t.id from booking, unnest(${n.offeredTherapistIds}::uuid[]) as t(id)
    )
    select * from booking
  `.execute(trx);
  return rows[0] ? { outcome: 'booked', booking: rows[0] } : { outcome: 'therapist_busy_elsewhere' };
}

/**
 * The holds of a booking already written (the venue data import writes its bookings first), in one statement
 * with the same inter-venue buffer guard and hold inserts as insertBookingWithHolds: nothing is written when a
 * therapist is busy at another venue within the buffer.
 */
export async function insertHolds(
  trx: Trx,
  booking: { id: string; venueId: string },
  holds: Holds,
): Promise<'placed' | 'therapist_busy_elsewhere'> {
  const { rows } = await sql<{ id: string }>`
    with booking as (
      select id, venue_id from bookings where id = ${booking.id} and not ${busyElsewhere(holds, booking.venueId)}
    ), ${holdInserts(holds)}
    select id from booking
  `.execute(trx);
  return rows.length ? 'placed' : 'therapist_busy_elsewhere';
}

/** Which of `roomIds` hold a reservation of one mode overlapping `range`, and for which booking. */
export async function roomHoldsDuring(trx: Trx, roomIds: string[], livemode: boolean, range: string) {
  if (roomIds.length === 0) return [];
  return trx
    .selectFrom('room_reservations')
    .select(['room_id', 'booking_id'])
    .where('room_id', 'in', roomIds)
    .where('livemode', '=', livemode)
    .where(sql<boolean>`during && ${range}::tstzrange`)
    .execute();
}

/**
 * The reservations that keep `holds.therapistIds` from a booking at `venueId`: one at the same time anywhere
 * (`elsewhere` false), or one at another venue within the inter-venue buffer (`elsewhere` true).
 */
export async function therapistClashes(
  trx: Trx,
  holds: Pick<Holds, 'livemode' | 'therapistIds' | 'therapistRange' | 'elsewhereRange'>,
  venueId: string,
) {
  if (holds.therapistIds.length === 0) return [];
  const { rows } = await sql<{ therapist_id: string; booking_id: string; elsewhere: boolean }>`
    select h.therapist_id, h.booking_id, not (h.during && ${holds.therapistRange}::tstzrange) as elsewhere
    from therapist_reservations h
    where h.therapist_id = any(${holds.therapistIds}::uuid[]) and h.livemode = ${holds.livemode}
      and (h.during && ${holds.therapistRange}::tstzrange
           ${holds.elsewhereRange ? sql`or (${elsewhere(venueId, holds.elsewhereRange)})` : sql``})
    order by h.therapist_id, lower(h.during)
  `.execute(trx);
  return rows;
}

/** Releases the room and therapists of a booking at once (cancel, complete, no-show), in one statement. */
export async function releaseReservations(trx: Trx, bookingId: string) {
  await sql`
    with room as (delete from room_reservations where booking_id = ${bookingId})
    delete from therapist_reservations where booking_id = ${bookingId}
  `.execute(trx);
}
