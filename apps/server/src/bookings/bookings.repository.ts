import { type Insertable, type Transaction, sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { Db } from '../db/connect.js';
import type { BookingStatus, BookingTable, Database } from '../db/schema.js';
import { tstzrange } from '../shared/instant.js';
import { BOOKING_COLUMNS } from './booking.mapper.js';

type Trx = Transaction<Database>;

/** Statuses that hold a room and therapists (DECISIONS "Availability"). */
export const LIVE_STATUSES: BookingStatus[] = ['pending', 'awaiting_therapist', 'confirmed'];

export async function findBookingByExternalId(db: Db, venueId: string, externalId: string) {
  return db.selectFrom('bookings').select(BOOKING_COLUMNS).where('venue_id', '=', venueId).where('external_id', '=', externalId).executeTakeFirst();
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
export async function findVisibleBookingsByExternalId(db: Db, scope: { organisationId: string; venueId: string | null }, externalId: string) {
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
  return trx.selectFrom('bookings').select(BOOKING_COLUMNS).select('therapist_id').where('id', '=', id).forUpdate().executeTakeFirst();
}

/**
 * The idempotency key's in-flight guard: a transaction-scoped advisory lock on (venue, external_id).
 * A second request that cannot take it is a concurrent duplicate (409 duplicate_external_id).
 */
export async function tryLockExternalId(trx: Trx, venueId: string, externalId: string): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`
    select pg_try_advisory_xact_lock(('x' || substr(md5(${`booking-external-id:${venueId}:${externalId}`}), 1, 16))::bit(64)::bigint) as locked
  `.execute(trx);
  return rows[0]?.locked === true;
}

const HOUR = 3_600_000;

/** The lock keys of a hold: one per (resource, hour) the range touches. */
export function holdKeys(kind: 'room' | 'therapist', id: string, range: { start: Temporal.Instant; end: Temporal.Instant }): string[] {
  const keys: string[] = [];
  for (let hour = Math.floor(range.start.epochMilliseconds / HOUR); hour * HOUR < range.end.epochMilliseconds; hour++) keys.push(`${kind}:${id}:${hour}`);
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
  await sql`select pg_advisory_xact_lock(('x' || substr(md5(key), 1, 16))::bit(64)::bigint)
    from unnest(${sql.val([...new Set(keys)].sort())}::text[]) with ordinality as k(key, n) order by n`.execute(trx);
}

/** Therapists among `therapistIds` holding a reservation at another venue within the buffer around [start, end). */
export async function therapistsBusyElsewhere(
  trx: Trx,
  input: { therapistIds: string[]; venueId: string; start: Temporal.Instant; end: Temporal.Instant; bufferMinutes: number },
): Promise<string[]> {
  if (input.therapistIds.length === 0) return [];
  const range = tstzrange(input.start.subtract({ minutes: input.bufferMinutes }), input.end.add({ minutes: input.bufferMinutes }));
  const rows = await trx
    .selectFrom('therapist_reservations')
    .select('therapist_id')
    .distinct()
    .where('therapist_id', 'in', input.therapistIds)
    .where('venue_id', '!=', input.venueId)
    .where(sql<boolean>`during && ${range}::tstzrange`)
    .execute();
  return rows.map((r) => r.therapist_id);
}

/** Find-or-create by (organisation, lower-cased email); concurrent bookings of one new guest share one row. */
export async function upsertCustomer(
  trx: Trx,
  guest: { organisationId: string; id: string; firstName: string; lastName: string; email: string; phone: string | null; language: string },
): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    insert into customers (id, organisation_id, first_name, last_name, email, phone, language)
    values (${guest.id}, ${guest.organisationId}, ${guest.firstName}, ${guest.lastName}, ${guest.email}, ${guest.phone}, ${guest.language})
    on conflict (organisation_id, lower(email)) do update set email = customers.email
    returning id
  `.execute(trx);
  return rows[0]!.id;
}

export async function insertBooking(trx: Trx, row: Insertable<BookingTable>) {
  return trx.insertInto('bookings').values(row).returning(BOOKING_COLUMNS).executeTakeFirstOrThrow();
}

export async function insertReservations(
  trx: Trx,
  input: { bookingId: string; venueId: string; roomId: string; roomRange: string; therapistIds: string[]; therapistRange: string },
) {
  await trx.insertInto('room_reservations').values({ booking_id: input.bookingId, room_id: input.roomId, during: input.roomRange }).execute();
  if (input.therapistIds.length) {
    await trx
      .insertInto('therapist_reservations')
      .values(input.therapistIds.map((id) => ({ booking_id: input.bookingId, therapist_id: id, venue_id: input.venueId, during: input.therapistRange })))
      .execute();
  }
}

export async function insertOffers(trx: Trx, bookingId: string, therapistIds: string[]) {
  if (therapistIds.length === 0) return;
  await trx.insertInto('booking_offers').values(therapistIds.map((id) => ({ booking_id: bookingId, therapist_id: id }))).execute();
}

/** Releases the room and therapists of a booking at once (cancel, complete, no-show). */
export async function releaseReservations(trx: Trx, bookingId: string) {
  await trx.deleteFrom('room_reservations').where('booking_id', '=', bookingId).execute();
  await trx.deleteFrom('therapist_reservations').where('booking_id', '=', bookingId).execute();
}

/** PostgreSQL's own word that a reservation overlaps another (exclusion_violation), from pg or PGlite. */
export function isOverlapViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23P01';
}

/**
 * A race the database settled by aborting us: an overlap lost to a concurrent booking, or a deadlock between
 * two bookings waiting on each other's holds (each waits on the constraint for the other to commit).
 */
export function isLostRace(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '23P01' || code === '40P01' || code === '40001';
}

export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  return e?.code === '23505' && (e.constraint === constraint || (e.message ?? '').includes(constraint));
}
