import type { CreateBookingBody } from '@spa/contract';
import type { z } from 'zod';
import type { Db } from '../../src/db/connect.js';
import type { KeyVault } from '../../src/auth/api-key.js';
import {
  EVERY_DAY,
  makeApiKey,
  makeOrganisation,
  makeRoom,
  makeTherapist,
  makeTreatment,
  makeVenue,
} from './factories.js';

/**
 * A bookable venue: Europe/Paris, open 09:00–18:00 every day, 30-minute grid, `rooms` rooms of capacity 1,
 * `therapists` therapists on shift 09:00–18:00 with the massage skill, one 60-minute 90 EUR variant,
 * and a key with all six scopes. Clock-independent: book any future date.
 */
export async function makeBookableVenue(
  db: Db,
  vault: KeyVault,
  options: { rooms?: number; therapists?: number; venue?: Parameters<typeof makeVenue>[2] } = {},
) {
  const organisation = await makeOrganisation(db);
  const venue = await makeVenue(db, organisation.id, options.venue);
  const rooms = [];
  for (let i = 0; i < (options.rooms ?? 1); i++) rooms.push(await makeRoom(db, venue.id));
  const therapists = [];
  for (let i = 0; i < (options.therapists ?? 1); i++) {
    therapists.push(
      await makeTherapist(db, organisation.id, {
        shifts: [{ venue_id: venue.id, days_of_week: EVERY_DAY, start_time: '09:00', end_time: '18:00' }],
      }),
    );
  }
  const treatment = await makeTreatment(db, venue.id, { variants: [{ duration_minutes: 60, price_minor: 9000 }] });
  const { key } = await makeApiKey(db, vault, organisation.id);
  return { organisation, venue, rooms, therapists, treatment, variant: treatment.variant, key };
}

export type BookableVenue = Awaited<ReturnType<typeof makeBookableVenue>>;

/** The create-booking body as the contract types it (what the typed client sends). */
export type CreateBody = z.input<typeof CreateBookingBody>;

/** A valid create-booking body for that venue; override what the test is about, within the contract. */
export function bookingBody(variantId: string, overrides: Partial<CreateBody> = {}): CreateBody {
  return {
    variant_id: variantId,
    start_at: '2026-11-25T09:00:00Z',
    guest_count: 1,
    guest: {
      first_name: 'Claire',
      last_name: 'Martin',
      email: 'claire.martin@example.com',
      phone: '+33612345678',
      language: 'fr',
    },
    external_reference: 'hotel.ROOM-412',
    price_paid: { amount: 90, currency: 'EUR' },
    ...overrides,
  };
}

/**
 * A create-booking body with overrides the contract refuses (a wrong type, a field too long, one it does not
 * know): for the tests of the 400 answers, sent untyped since the typed client cannot express it.
 */
export function invalidBookingBody(variantId: string, overrides: Record<string, unknown>): Record<string, unknown> {
  return { ...bookingBody(variantId), ...overrides };
}
