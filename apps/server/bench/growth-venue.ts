import type { Temporal } from 'temporal-polyfill';
import { SCOPES } from '@spa/contract';
import type { KeyVault } from '../src/auth/api-key.js';
import type { Db } from '../src/db/connect.js';
import { loadSnapshot, toSnapshotVariant } from '../src/scheduling/index.js';
import { findVenue, findVenueWithVariant } from '../src/venues/venues.repository.js';
import {
  EVERY_DAY,
  makeApiKey,
  makeOrganisation,
  makeRoom,
  makeTherapist,
  makeTreatment,
  makeVenue,
} from '../test/support/factories.js';
import { placeBookings } from './place-bookings.js';
import { seeded } from './scenario.js';

export interface VenueSize {
  name: string;
  rooms: number;
  therapists: number;
  bookings: number;
}

export const SIZES: VenueSize[] = [
  { name: 'small', rooms: 2, therapists: 2, bookings: 100 },
  { name: 'medium', rooms: 10, therapists: 10, bookings: 1_000 },
  { name: 'large', rooms: 40, therapists: 40, bookings: 10_000 },
];

/** Opening hours and grid of every size: 08:00 to 22:00 by 15 minutes, 57 candidate starts a day. */
export const HOURS = { opening: '08:00', closing: '22:00', step: 15 };
export const CANDIDATES_PER_DAY = ((22 - 8) * 60) / HOURS.step + 1;

/**
 * A venue of `size`: capacity-1 rooms (every fifth holds two), therapists with the treatments' skill on a
 * morning (08:00-18:00) or evening (12:00-22:00) shift every day, 30/60/90-minute treatments needing any room,
 * and `size.bookings` live bookings over the `days` days after `from`. Returns the 60-minute variant to measure.
 */
export async function buildGrowthVenue(
  db: Db,
  vault: KeyVault,
  size: VenueSize,
  options: { from: Temporal.PlainDate; days: number; now: Temporal.Instant },
) {
  const organisation = await makeOrganisation(db);
  const venue = await makeVenue(db, organisation.id, {
    opening_time: HOURS.opening,
    closing_time: HOURS.closing,
    slot_interval: HOURS.step,
    room_turnover_buffer_minutes: 15,
  });
  for (let i = 0; i < size.rooms; i++) await makeRoom(db, venue.id, { capacity: i % 5 === 4 ? 2 : 1 });
  for (let i = 0; i < size.therapists; i++) {
    const [start_time, end_time] = i % 2 ? ['12:00', '22:00'] : ['08:00', '18:00'];
    await makeTherapist(db, organisation.id, {
      skills: ['massage'],
      shifts: [{ venue_id: venue.id, days_of_week: EVERY_DAY, start_time, end_time }],
    });
  }
  const treatments = [];
  for (const duration of [30, 60, 90])
    treatments.push(
      await makeTreatment(db, venue.id, {
        required_skills: ['massage'],
        lead_time_minutes: 60,
        variants: [{ duration_minutes: duration, price_minor: duration * 150 }],
      }),
    );
  const { key } = await makeApiKey(db, vault, organisation.id, { scopes: SCOPES });

  const range = { from: options.from, to: options.from.add({ days: options.days - 1 }) };
  const venueRow = (await findVenue(db, { id: venue.id }))!;
  const variants = [];
  for (const treatment of treatments) {
    const { variant } = (await findVenueWithVariant(db, { id: venue.id }, treatment.variant.id))!;
    const snapshot = await loadSnapshot(db, venueRow, toSnapshotVariant(variant!), range, true);
    variants.push({ snapshot, priceMinor: treatment.variant.price_minor });
  }
  const placed = await placeBookings(db, venueRow, variants, {
    ...options,
    count: size.bookings,
    random: seeded(size.bookings),
  });
  return { venue, variant: treatments[1]!.variant, key, placed };
}
