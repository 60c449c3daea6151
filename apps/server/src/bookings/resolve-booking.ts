import { isUuid } from '@spa/contract';
import type { OrganisationScope } from '../auth/organisation-scope.js';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/connect.js';
import {
  AmbiguousExternalIdError,
  BookingForbiddenError,
  BookingNotFoundError,
  ForbiddenError,
  NoSuchBookingError,
} from '../errors/domain-errors.js';
import { canAccessVenue } from '../venues/venue-access.js';
import { type BookingWithVenue, findBookingById, findVisibleBookingsByExternalId } from './bookings.repository.js';

const EXTERNAL_PREFIX = 'ext:';

/** The refusals of each route on one booking: cancel and reschedule answer upper-case codes, the read sentences. */
const REFUSALS = {
  cancel: {
    notFound: () => new BookingNotFoundError(),
    forbidden: () => new BookingForbiddenError(),
    ambiguous: () => new AmbiguousExternalIdError(),
  },
  reschedule: {
    notFound: () => new BookingNotFoundError(),
    forbidden: () => new BookingForbiddenError(),
    ambiguous: () =>
      new AmbiguousExternalIdError('This external id matches bookings at several venues; reschedule by booking id'),
  },
  read: {
    notFound: () => new NoSuchBookingError(),
    forbidden: () => new ForbiddenError(),
    ambiguous: () =>
      new AmbiguousExternalIdError('This external id matches bookings at several venues; use the booking id'),
  },
};

/**
 * The booking a route's reference names, in one read: a UUID the key may touch, or `ext:{external_id}` among
 * the bookings the key can see. `lock` reads it under its row lock (inside the caller's transaction), so the
 * row returned is the one a status change may act on.
 */
export async function resolveBooking(
  db: Db,
  principal: Principal,
  ref: string,
  route: keyof typeof REFUSALS,
  options: { lock?: boolean } = {},
): Promise<BookingWithVenue> {
  const refuse = REFUSALS[route];
  if (ref.startsWith(EXTERNAL_PREFIX)) {
    const matches = await findVisibleBookingsByExternalId(db, principal, ref.slice(EXTERNAL_PREFIX.length), options);
    if (matches.length === 0) throw refuse.notFound();
    if (matches.length > 1) throw refuse.ambiguous();
    return matches[0]!;
  }
  if (!isUuid(ref)) throw refuse.notFound();
  const booking = await findBookingById(db, ref.toLowerCase(), options);
  if (!booking) throw refuse.notFound();
  if (!canAccessVenue(principal, { id: booking.venue_id, organisation_id: booking.organisation_id }))
    throw refuse.forbidden();
  return booking;
}

/**
 * The booking a workflow step names by its UUID (an operator's CLI command, a dashboard person's button), read
 * and row-locked inside the step's transaction by the same read as resolveBooking. With a dashboard scope, a
 * booking outside it reads as absent (undefined), as every dashboard record does.
 */
export async function resolveBookingForStep(
  trx: Db,
  bookingId: string,
  scope: OrganisationScope | undefined,
): Promise<BookingWithVenue | undefined> {
  const booking = await findBookingById(trx, bookingId, { lock: true });
  if (!booking || !scope) return booking;
  const visible =
    booking.organisation_id === scope.organisationId &&
    (scope.venueIds === null || scope.venueIds.includes(booking.venue_id));
  return visible ? booking : undefined;
}
