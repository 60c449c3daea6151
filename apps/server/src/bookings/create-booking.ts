import { randomUUID } from 'node:crypto';
import type { CreateBookingBody } from '@spa/contract';
import type { Transaction } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/connect.js';
import type { BookingRow } from '../db/columns.js';
import { isDatabaseUnavailable } from '../db/database-errors.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import type { Database } from '../db/schema.js';
import {
  CurrencyMismatchError,
  DuplicateExternalIdError,
  ValidationError,
  VariantNotFoundError,
} from '../errors/domain-errors.js';
import { type BookingDecision, type SnapshotVariant, toSnapshotVariant } from '../scheduling/index.js';
import { toMinor } from '../lib/money.js';
import type { VenueRow } from '../venues/venues.repository.js';
import { resolveVenueVariant } from '../venues/venue-access.js';
import { recordBookingEvent } from '../webhooks/record-event.js';
import {
  findBookingByExternalId,
  insertBookingWithHolds,
  type Holds,
  type NewBooking,
  readSnapshotAndClaim,
} from './bookings.repository.js';
import { clientTypeOf } from './client-type.js';
import { bookingIfCommitted } from './commit-outcome.js';
import { checkStartAt, placeHolds, retryLostRaces, type SlotClaim, slotClaim } from './place-holds.js';

export interface CreateBookingOptions {
  db: Db;
  principal: Principal;
  venueRef: string;
  body: z.infer<typeof CreateBookingBody>;
  now: Temporal.Instant;
}

export interface CreateBookingResult {
  booking: BookingRow;
  /** True when an earlier booking with the same external_id is returned (idempotent replay). */
  replayed: boolean;
}

/**
 * docs/api.md, "POST /v1/venues/{venue_id}/bookings", in four steps: check the input, replay by external id, reserve
 * the slot in a transaction, retry lost races. Checks answer in the order of its "Errors" section: 400, then venue,
 * then variant, then 409/422.
 */
export async function createBooking(options: CreateBookingOptions): Promise<CreateBookingResult> {
  const { db, principal, venueRef, body, now } = options;
  const input = checkInput(body, now);
  const { venue, variant } = await resolveVenueVariant(db, principal, venueRef, body.variant_id);
  if (!variant) {
    // A retry whose variant changed is still a retry: the original booking wins over the 404.
    const original = await replayByExternalId(db, venue.id, input.externalId);
    if (original) return original;
    throw new VariantNotFoundError();
  }
  const request = slotRequest(venue, toSnapshotVariant(variant), input, options);
  try {
    return await retryLostRaces(() => db.transaction().execute((trx) => reserveSlot(trx, request)));
  } catch (error) {
    // A concurrent request with the same external_id committed first: it is the original.
    if (input.externalId && isUniqueViolation(error, 'bookings_venue_external_id_key')) {
      const original = await replayByExternalId(db, venue.id, input.externalId);
      if (original) return original;
    }
    // The connection died around COMMIT: the booking may exist, and then the partner gets its 201.
    if (isDatabaseUnavailable(error)) {
      const committed = await bookingIfCommitted(db, request.bookingId);
      if (committed) return { booking: committed, replayed: false };
    }
    throw error;
  }
}

interface CheckedInput {
  startAt: Temporal.Instant;
  priceMinor: number;
  externalId: string | null;
}

/** Step 1: what the contract's zod cannot check (it needs the clock or the currency's minor unit). */
function checkInput(body: CreateBookingOptions['body'], now: Temporal.Instant): CheckedInput {
  const startAt = checkStartAt(body.start_at, now);
  const priceMinor = toMinor(body.price_paid.amount, body.price_paid.currency);
  if (priceMinor === undefined) {
    throw ValidationError.field(
      'price_paid.amount',
      `price_paid.amount has more decimals than ${body.price_paid.currency} allows`,
    );
  }
  return { startAt, priceMinor, externalId: body.external_id ?? null };
}

/** Step 2: the booking an earlier request with this external_id made, answered again as it is now. */
async function replayByExternalId(
  db: Db,
  venueId: string,
  externalId: string | null,
): Promise<CreateBookingResult | undefined> {
  const original = externalId ? await findBookingByExternalId(db, venueId, externalId) : undefined;
  return original && { booking: original, replayed: true };
}

/** Everything one reservation attempt needs, computed once before the retries. */
interface SlotRequest extends CheckedInput, SlotClaim {
  /** Chosen before the first attempt, so that after a lost connection the booking can be looked for by its id. */
  bookingId: string;
  body: CreateBookingOptions['body'];
}

function slotRequest(
  venue: VenueRow,
  variant: SnapshotVariant,
  input: CheckedInput,
  { body, now }: CreateBookingOptions,
): SlotRequest {
  const claim = slotClaim(venue, variant, { startAt: input.startAt, guestCount: body.guest_count, now });
  return { ...input, ...claim, bookingId: randomUUID(), body };
}

/**
 * Step 3, one transaction: claim the external id (or replay it), then placeHolds (the slot re-checked with the
 * function that lists slots, its holds locked) writes the booking with its holds; the exclusion constraints have
 * the last word on overlaps.
 */
async function reserveSlot(trx: Transaction<Database>, r: SlotRequest): Promise<CreateBookingResult> {
  const { row, claim } = await readSnapshotAndClaim(trx, r.query, r.externalId);
  // A replay wins over every later check: the partner gets its original booking back.
  if (!claim.locked) throw new DuplicateExternalIdError();
  if (claim.existingId)
    return { booking: (await findBookingByExternalId(trx, r.venue.id, r.externalId!))!, replayed: true };
  if (r.body.price_paid.currency !== r.venue.currency) throw new CurrencyMismatchError(r.venue.currency);

  const { written } = await placeHolds(trx, r, row, async (holds, decision) => {
    const inserted = await insertBookingWithHolds(trx, { ...newBooking(r, decision), ...holds });
    return inserted.outcome === 'booked' ? inserted : undefined;
  });
  await recordBookingEvent(trx, 'booking.created', written.booking);
  return { booking: written.booking, replayed: false };
}

/** The rows the booking writes besides its holds: guest, booking and the broadcast offers. */
function newBooking(r: SlotRequest, decision: BookingDecision): Omit<NewBooking, keyof Holds> {
  const { body, venue, now } = r;
  return {
    guest: {
      organisationId: venue.organisation_id,
      firstName: body.guest.first_name,
      lastName: body.guest.last_name,
      email: body.guest.email,
      phone: body.guest.phone ?? null,
      language: body.guest.language ?? 'fr',
    },
    booking: {
      id: r.bookingId,
      venue_id: venue.id,
      treatment_id: r.variant.treatmentId,
      variant_id: r.variant.id,
      status: 'pending',
      start_at: r.startAt.toString(),
      end_at: r.end.toString(),
      guest_count: body.guest_count,
      notes: body.notes ?? null,
      external_reference: body.external_reference ?? null,
      external_id: r.externalId,
      client_type: clientTypeOf(body.external_reference),
      total_price_minor: r.priceMinor,
      currency: body.price_paid.currency,
      created_at: now.toString(),
      updated_at: now.toString(),
    },
    // The broadcast: every qualified therapist free at that slot is offered the booking.
    offeredTherapistIds: decision.offeredTherapistIds,
  };
}
