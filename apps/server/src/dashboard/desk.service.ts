import { DESK_LIST_LIMIT, type Desk, type DeskBooking } from '@spa/contract/dashboard';
import { sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { z } from 'zod';
import type { OrganisationScope } from '../auth/organisation-scope.js';
import { type BookingSearch, searchBookings } from '../bookings/booking-search.repository.js';
import type { Db } from '../db/connect.js';
import { toBookingListItem } from './booking.mapper.js';

type Item = z.infer<typeof DeskBooking>;
type Venue = { id: string; timezone: string };

/**
 * The venue desk in one answer, whatever the queue's length: bookings waiting for a therapist (with whom they were
 * offered to), confirmed bookings that have started and wait to be closed, and each venue's agenda for its own
 * today and tomorrow. Each list carries up to DESK_LIST_LIMIT bookings, soonest first, and how many more match.
 */
export async function readDesk(
  db: Db,
  scope: OrganisationScope,
  venues: readonly Venue[],
  now: Temporal.Instant,
): Promise<z.infer<typeof Desk>> {
  const list = (search: BookingSearch) => deskList(db, scope, search);
  const days = venues.flatMap((venue) => {
    const today = now.toZonedDateTimeISO(venue.timezone).toPlainDate();
    return [today, today.add({ days: 1 })].map((day) => ({ venue, date: day.toString() }));
  });
  const [waiting, toClose, ...agenda] = await Promise.all([
    list({ statuses: ['pending', 'awaiting_therapist'] }),
    list({ status: 'confirmed', startedBy: now.toString() }),
    ...days.map(({ venue, date }) =>
      list({
        venueId: venue.id,
        from: date,
        to: date,
        statuses: ['pending', 'awaiting_therapist', 'confirmed', 'completed', 'no_show'],
      }),
    ),
  ]);
  const all = [waiting, toClose, ...agenda].flatMap((l) => l.bookings);
  const offered = await offeredTherapists(
    db,
    all.filter((b) => b.status === 'pending' || b.status === 'awaiting_therapist').map((b) => b.id),
  );
  const withTherapists = (l: { bookings: Omit<Item, 'eligible_therapists'>[]; more: number }) => ({
    bookings: l.bookings.map((b) => ({ ...b, eligible_therapists: offered.get(b.id) ?? [] })),
    more: l.more,
  });
  return {
    waiting: withTherapists(waiting),
    to_close: withTherapists(toClose),
    agenda: days.map(({ venue, date }, i) => ({ venue_id: venue.id, date, ...withTherapists(agenda[i]!) })),
  };
}

async function deskList(db: Db, scope: OrganisationScope, search: BookingSearch) {
  const { rows, total } = await searchBookings(db, scope, search, { offset: 0, limit: DESK_LIST_LIMIT });
  return { bookings: rows.map(toBookingListItem), more: Math.max(0, total - rows.length) };
}

/**
 * The therapists who may accept each of these bookings now, in one statement: those it was offered to, who have not
 * accepted it yet (a booking for several guests needs one each), with no other hold in its way (the rule of listEligibleTherapists and acceptBooking, for many bookings at once).
 */
async function offeredTherapists(db: Db, bookingIds: string[]) {
  const byBooking = new Map<string, { id: string; first_name: string; last_name: string }[]>();
  if (bookingIds.length === 0) return byBooking;
  const { rows } = await sql<{ booking_id: string; id: string; first_name: string; last_name: string }>`
    select b.id as booking_id, t.id, t.first_name, t.last_name
    from bookings b
    join venues v on v.id = b.venue_id
    join booking_offers o on o.booking_id = b.id
    join therapists t on t.id = o.therapist_id
    where b.id = any(${bookingIds}::uuid[]) and b.status in ('pending', 'awaiting_therapist') and o.accepted_at is null
      and not exists (
        select 1 from therapist_reservations h
        where h.therapist_id = t.id and h.booking_id <> b.id
          and h.during && case when h.venue_id = b.venue_id then tstzrange(b.start_at, b.end_at)
            else tstzrange(b.start_at - make_interval(mins => v.inter_venue_buffer_minutes),
                           b.end_at + make_interval(mins => v.inter_venue_buffer_minutes)) end)
    order by t.last_name, t.first_name, t.id
  `.execute(db);
  for (const { booking_id, ...therapist } of rows) {
    const list = byBooking.get(booking_id) ?? [];
    list.push(therapist);
    byBooking.set(booking_id, list);
  }
  return byBooking;
}
