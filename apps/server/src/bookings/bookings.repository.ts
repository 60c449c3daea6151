import { type Insertable, type Transaction, sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { Db } from '../db/connect.js';
import type { BookingTable, Database } from '../db/schema.js';
import { type SnapshotQuery, type SnapshotRow, selectSnapshotRow, snapshotSql } from '../scheduling/index.js';
import { advisoryLockKey } from '../db/advisory-lock.js';
import { tstzrange } from '../lib/instant.js';
import { BOOKING_COLUMNS, type BookingRow } from '../db/columns.js';

type Trx = Transaction<Database>;

export async function findBookingByExternalId(db: Db, venueId: string, externalId: string) {
  return db
    .selectFrom('bookings')
    .select(BOOKING_COLUMNS)
    .where('venue_id', '=', venueId)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}

export async function findBookingById(db: Db, id: string) {
  return db
    .selectFrom('bookings')
    .innerJoin('venues', 'venues.id', 'bookings.venue_id')
    .select([...BOOKING_COLUMNS.map((c) => `bookings.${c}` as const), 'venues.organisation_id'])
    .where('bookings.id', '=', id)
    .executeTakeFirst();
}

/** Bookings with this external id at the venues a key can see (the cancel endpoint's `ext:` form). */
export async function findVisibleBookingsByExternalId(
  db: Db,
  scope: { organisationId: string; venueId: string | null },
  externalId: string,
) {
  let query = db
    .selectFrom('bookings')
    .innerJoin('venues', 'venues.id', 'bookings.venue_id')
    .select(['bookings.id'])
    .where('bookings.external_id', '=', externalId)
    .where('venues.organisation_id', '=', scope.organisationId);
  if (scope.venueId) query = query.where('bookings.venue_id', '=', scope.venueId);
  return query.limit(2).execute();
}

/** Row lock: status changes of one booking are serialised. */
export async function lockBooking(trx: Trx, id: string) {
  return trx
    .selectFrom('bookings')
    .select(BOOKING_COLUMNS)
    .select('therapist_id')
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
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
           pg_try_advisory_xact_lock(${advisoryLockKey(`booking-external-id:${query.venueId}:${externalId}`)}) as claim_locked,
           (select id from bookings where venue_id = ${query.venueId} and external_id = ${externalId}) as claim_existing_id
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
 * The inter-venue buffer rule, written once: reservations of `therapistIds` at another venue than `venueId`
 * overlapping `range` (the booking's [start, end) widened by the buffer). A FROM/WHERE fragment.
 */
function heldElsewhere(therapistIds: string[], venueId: string, range: string) {
  return sql`from therapist_reservations h
    where h.therapist_id = any(${therapistIds}::uuid[]) and h.venue_id <> ${venueId} and h.during && ${range}::tstzrange`;
}

/** Therapists among `therapistIds` holding a reservation at another venue within the buffer around [start, end). */
export async function therapistsBusyElsewhere(
  trx: Trx,
  input: {
    therapistIds: string[];
    venueId: string;
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
  }>`select distinct h.therapist_id ${heldElsewhere(input.therapistIds, input.venueId, range)}`.execute(trx);
  return rows.map((r) => r.therapist_id);
}

export type InsertBookingOutcome = { outcome: 'booked'; booking: BookingRow } | { outcome: 'therapist_busy_elsewhere' };

export interface NewBooking {
  guest: {
    organisationId: string;
    firstName: string;
    lastName: string;
    email: string;
    phone: string | null;
    language: string;
  };
  booking: Omit<Insertable<BookingTable>, 'customer_id'> & { id: string };
  roomId: string;
  roomRange: string;
  therapistIds: string[];
  therapistRange: string;
  /**
   * The therapists' range widened by the inter-venue buffer, or null without a buffer: the booking is written
   * only if none of its therapists holds a reservation at another venue within it. The hold locks taken before
   * this statement make the check safe (its snapshot starts after the locks are held).
   */
  elsewhereRange: string | null;
  offeredTherapistIds: string[];
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
  const busyElsewhere = n.elsewhereRange
    ? sql`exists (select 1 ${heldElsewhere(n.therapistIds, b.venue_id, n.elsewhereRange)})`
    : sql`false`;
  const { rows } = await sql<BookingRow>`
    with customer as (
      insert into customers (id, organisation_id, first_name, last_name, email, phone, language)
      select gen_random_uuid(), ${n.guest.organisationId}, ${n.guest.firstName}, ${n.guest.lastName}, ${n.guest.email}, ${n.guest.phone}, ${n.guest.language}
      where not ${busyElsewhere}
      on conflict (organisation_id, lower(email)) do update set email = customers.email
      returning id
    ), booking as (
      insert into bookings (id, venue_id, treatment_id, variant_id, customer_id, status, start_at, end_at, guest_count, notes,
                            external_reference, external_id, client_type, total_price_minor, currency, created_at, updated_at)
      select ${b.id}, ${b.venue_id}, ${b.treatment_id}, ${b.variant_id}, customer.id, ${b.status}, ${b.start_at}, ${b.end_at}, ${b.guest_count},
             ${b.notes}, ${b.external_reference}, ${b.external_id}, ${b.client_type}, ${b.total_price_minor}, ${b.currency}, ${b.created_at}, ${b.updated_at}
      from customer
      returning ${sql.join(BOOKING_COLUMNS.map((c) => sql.ref(c)))}
    ), room_hold as (
      insert into room_reservations (booking_id, room_id, during) select booking.id, ${n.roomId}, ${n.roomRange}::tstzrange from booking
    ), therapist_holds as (
      insert into therapist_reservations (booking_id, therapist_id, venue_id, during)
      select booking.id, t.id, booking.venue_id, ${n.therapistRange}::tstzrange from booking, unnest(${n.therapistIds}::uuid[]) as t(id)
    ), offers as (
      insert into booking_offers (booking_id, therapist_id) select booking.id, t.id from booking, unnest(${n.offeredTherapistIds}::uuid[]) as t(id)
    )
    select * from booking
  `.execute(trx);
  return rows[0] ? { outcome: 'booked', booking: rows[0] } : { outcome: 'therapist_busy_elsewhere' };
}

/** Releases the room and therapists of a booking at once (cancel, complete, no-show). */
export async function releaseReservations(trx: Trx, bookingId: string) {
  await trx.deleteFrom('room_reservations').where('booking_id', '=', bookingId).execute();
  await trx.deleteFrom('therapist_reservations').where('booking_id', '=', bookingId).execute();
}
