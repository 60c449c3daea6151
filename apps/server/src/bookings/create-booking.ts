import { randomUUID } from 'node:crypto';
import type { CreateBookingBody } from '@spa/contract';
import { Temporal } from 'temporal-polyfill';
import type { z } from 'zod';
import { snapshotQuery, toSnapshot, toSnapshotVariant } from '../availability/availability.repository.js';
import { LAST_DATE } from '../availability/availability-period.js';
import { decideBooking } from '../availability/compute-slots.js';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/connect.js';
import {
  CurrencyMismatchError,
  DuplicateExternalIdError,
  SlotUnavailableError,
  ValidationError,
  VariantNotFoundError,
} from '../http/domain-errors.js';
import { tstzrange } from '../shared/instant.js';
import { toMinor } from '../shared/money.js';
import { resolveVenueVariant } from '../venues/venue-access.js';
import { recordBookingEvent } from '../webhooks/index.js';
import { type BookingRow } from './booking.mapper.js';
import {
  findBookingByExternalId,
  holdKeys,
  insertBookingWithHolds,
  isLostRace,
  isUniqueViolation,
  lockHolds,
  readSnapshotAndClaim,
} from './bookings.repository.js';
import { clientTypeOf } from './client-type.js';

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

const LAST_START = LAST_DATE.add({ days: 1 }).toZonedDateTime('UTC').toInstant();

/** Overlap violations mean another booking won a race for the room or a therapist; a fresh look may find another. */
const ATTEMPTS = 5;

/**
 * Spec 4.7. Checks in the order of DECISIONS (400, then venue, then variant, then 409/422), then books in one
 * transaction: re-checks the slot with the availability function, reserves a room and therapists (the exclusion
 * constraints make an overlap impossible) and inserts the booking.
 */
export async function createBooking({
  db,
  principal,
  venueRef,
  body,
  now,
}: CreateBookingOptions): Promise<CreateBookingResult> {
  const startAt = Temporal.Instant.from(body.start_at);
  if (Temporal.Instant.compare(startAt, now) <= 0)
    throw ValidationError.field('start_at', 'start_at must be in the future');
  // The last date availability lists (availability-period.ts); beyond it zone and range arithmetic would overflow.
  if (Temporal.Instant.compare(startAt, LAST_START) >= 0)
    throw ValidationError.field('start_at', `start_at must be before ${LAST_START.toString()}`);
  const priceMinor = toMinor(body.price_paid.amount, body.price_paid.currency);
  if (priceMinor === undefined) {
    throw ValidationError.field(
      'price_paid.amount',
      `price_paid.amount has more decimals than ${body.price_paid.currency} allows`,
    );
  }

  const externalId = body.external_id ?? null;
  const { venue, variant } = await resolveVenueVariant(db, principal, venueRef, body.variant_id);
  if (!variant) {
    // A retry whose variant changed is still a retry: the original booking wins over the 404.
    const original = externalId ? await findBookingByExternalId(db, venue.id, externalId) : undefined;
    if (original) return { booking: original, replayed: true };
    throw new VariantNotFoundError();
  }

  const end = startAt.add({ minutes: variant.duration_minutes });
  const snapshotVariant = toSnapshotVariant(variant);
  const localDate = startAt.toZonedDateTimeISO(venue.timezone ?? 'UTC').toPlainDate();
  const query = snapshotQuery(venue, snapshotVariant, { from: localDate, to: localDate }, { start: startAt, end });

  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        const { row, claim } = await readSnapshotAndClaim(trx, query, externalId);
        // A replay wins over every later check: the partner gets its original booking back.
        if (!claim.locked) throw new DuplicateExternalIdError();
        if (claim.existingId)
          return { booking: (await findBookingByExternalId(trx, venue.id, externalId!))!, replayed: true };
        if (body.price_paid.currency !== venue.currency) throw new CurrencyMismatchError(venue.currency);

        // The same function that lists slots decides this one, on data read inside this transaction.
        const decision = decideBooking(
          toSnapshot(venue, snapshotVariant, row),
          startAt,
          now,
          body.guest_count,
          Math.random,
        );
        if (!decision) throw new SlotUnavailableError();
        const { allocation } = decision;

        const roomRange = { start: startAt, end: end.add({ minutes: venue.room_turnover_buffer_minutes }) };
        const buffer = { minutes: venue.inter_venue_buffer_minutes };
        const widened = { start: startAt.subtract(buffer), end: end.add(buffer) };
        await lockHolds(trx, [
          ...holdKeys('room', allocation.roomId, roomRange),
          ...allocation.therapistIds.flatMap((id) => holdKeys('therapist', id, widened)),
        ]);

        const booking = await insertBookingWithHolds(trx, {
          guest: {
            organisationId: venue.organisation_id,
            firstName: body.guest.first_name,
            lastName: body.guest.last_name,
            email: body.guest.email,
            phone: body.guest.phone ?? null,
            language: body.guest.language ?? 'fr',
          },
          booking: {
            id: randomUUID(),
            venue_id: venue.id,
            treatment_id: variant.treatment_id,
            variant_id: variant.id,
            status: 'pending',
            start_at: startAt.toString(),
            end_at: end.toString(),
            guest_count: body.guest_count,
            notes: body.notes ?? null,
            external_reference: body.external_reference ?? null,
            external_id: externalId,
            client_type: clientTypeOf(body.external_reference),
            total_price_minor: priceMinor,
            currency: body.price_paid.currency,
            created_at: now.toString(),
            updated_at: now.toString(),
          },
          roomId: allocation.roomId,
          roomRange: tstzrange(roomRange.start, roomRange.end),
          therapistIds: allocation.therapistIds,
          therapistRange: tstzrange(startAt, end),
          elsewhereRange: buffer.minutes > 0 ? tstzrange(widened.start, widened.end) : null,
          // The broadcast: every qualified therapist free at that slot is offered the booking.
          offeredTherapistIds: decision.offeredTherapistIds,
        });
        if (!booking) throw new SlotUnavailableError(); // a therapist is busy at another venue within the buffer
        await recordBookingEvent(trx, 'booking.created', booking);
        return { booking, replayed: false };
      });
    } catch (error) {
      if (isLostRace(error)) {
        if (attempt < ATTEMPTS) continue;
        throw new SlotUnavailableError();
      }
      if (externalId && isUniqueViolation(error, 'bookings_venue_external_id_key')) {
        const existing = await findBookingByExternalId(db, venue.id, externalId);
        if (existing) return { booking: existing, replayed: true };
      }
      throw error;
    }
  }
}
