import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { KeyVault } from '../src/auth/api-key.js';
import type { Principal } from '../src/auth/principal.js';
import { createBooking } from '../src/bookings/create-booking.js';
import type { Db } from '../src/db/connect.js';
import { SlotUnavailableError } from '../src/errors/domain-errors.js';
import { EVERY_DAY } from '../test/support/calendar.js';
import { SCOPES } from '@spa/contract';
import {
  makeApiKey,
  makeOrganisation,
  makeRoom,
  makeTherapist,
  makeTreatment,
  makeVenue,
} from '../test/support/factories.js';

/** Deterministic pseudo-random numbers, so every run books the same slots. */
export function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * The scenario: one venue with 10 therapists (3 also at a second venue), 6 rooms, 4 treatments,
 * and `bookings` existing bookings spread over the 62 days after `from`, placed through the real booking service.
 */
export async function buildScenario(
  db: Db,
  vault: KeyVault,
  options: { from: Temporal.PlainDate; now: Temporal.Instant; bookings: number },
) {
  const organisation = await makeOrganisation(db, { slug: `bench-${randomUUID().slice(0, 8)}` });
  const venueSettings = {
    opening_time: '09:00',
    closing_time: '20:00',
    room_turnover_buffer_minutes: 15,
    inter_venue_buffer_minutes: 30,
    recurring_start_date: '2026-01-01',
  };
  const venue = await makeVenue(db, organisation.id, { slug: 'bench-main', ...venueSettings });
  const second = await makeVenue(db, organisation.id, { slug: 'bench-second', ...venueSettings });
  for (const capacity of [1, 1, 1, 2, 2, 3]) await makeRoom(db, venue.id, { capacity });
  await makeRoom(db, second.id, { capacity: 2 });

  const therapists = [];
  for (let i = 0; i < 10; i++) {
    const shifts = [
      {
        venue_id: venue.id,
        days_of_week: EVERY_DAY,
        start_time: i % 3 === 0 ? '09:00' : '12:00',
        end_time: i % 3 === 0 ? '17:00' : '20:00',
      },
    ];
    if (i < 3) shifts.push({ venue_id: second.id, days_of_week: [1, 3, 5], start_time: '07:00', end_time: '09:00' });
    therapists.push(await makeTherapist(db, organisation.id, { skills: ['massage', 'facial'], shifts }));
  }
  const treatments = [];
  for (const [index, duration] of [30, 60, 90, 120].entries()) {
    treatments.push(
      await makeTreatment(db, venue.id, {
        required_skills: index % 2 ? ['facial'] : ['massage'],
        lead_time_minutes: 60,
        variants: [{ duration_minutes: duration, price_minor: duration * 150 }],
      }),
    );
  }
  const { key } = await makeApiKey(db, vault, organisation.id, { scopes: SCOPES });
  const principal: Principal = {
    keyId: 'bench',
    organisationId: organisation.id,
    venueId: null,
    scopes: new Set(SCOPES),
    rateLimitPerMin: null,
    livemode: true,
  };

  const random = seeded(42);
  // Early-morning bookings at the second venue, so the inter-venue buffer has work to do.
  const secondTreatment = await makeTreatment(db, second.id, {
    required_skills: ['massage'],
    variants: [{ duration_minutes: 60, price_minor: 9000 }],
  });
  for (let d = 0; d < 62; d += 2) {
    const start = options.from.add({ days: d }).toZonedDateTime({ timeZone: 'Europe/Paris', plainTime: '07:30' });
    await tryBook(second.id, secondTreatment.variant, start.toInstant(), `early${d}`);
  }

  let placed = 0;
  for (let tries = 0; placed < options.bookings && tries < options.bookings * 20; tries++) {
    const treatment = treatments[Math.floor(random() * treatments.length)]!;
    const day = options.from.add({ days: Math.floor(random() * 62) });
    const minutes = 9 * 60 + 30 * Math.floor(random() * 20);
    const start = day.toZonedDateTime({
      timeZone: 'Europe/Paris',
      plainTime: Temporal.PlainTime.from({ hour: Math.floor(minutes / 60), minute: minutes % 60 }),
    });
    if (await tryBook(venue.id, treatment.variant, start.toInstant(), `guest${placed % 200}`)) placed++;
  }

  async function tryBook(
    venueId: string,
    variant: { id: string; price_minor: number },
    start: Temporal.Instant,
    guest: string,
  ) {
    try {
      await createBooking({
        db,
        principal,
        venueRef: venueId,
        now: options.now,
        body: {
          variant_id: variant.id,
          start_at: start.toString(),
          guest_count: 1,
          guest: { first_name: 'Bench', last_name: guest, email: `${guest}@bench.example` },
          price_paid: { amount: variant.price_minor / 100, currency: 'EUR' },
        },
      });
      return true;
    } catch (error) {
      // Not a listed slot (taken, out of shift): the next random pick will do.
      if (error instanceof SlotUnavailableError) return false;
      throw error;
    }
  }
  return { organisation, venue, second, therapists, treatments, key, placed };
}
