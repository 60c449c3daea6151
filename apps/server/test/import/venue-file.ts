import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Temporal } from 'temporal-polyfill';
import type { VenueData } from '../../src/import/venue-data.schema.js';

/** The demo file as plain JSON, fresh on each call so a test may edit it. */
export const demoFile = () =>
  JSON.parse(readFileSync(new URL('../../src/demo/demo-data.json', import.meta.url), 'utf8'));

/**
 * A small valid venue data file with fresh ids and slugs, so tests sharing one database never collide:
 * one organisation, one venue (rooms of capacity 1 and 2, a 15-minute turnover buffer), one treatment with
 * two variants, two therapists, two customers, a dashboard key. `ids` names everything for assertions.
 */
export function makeVenueFile() {
  const tag = randomBytes(4).toString('hex');
  const ids = {
    organisation: randomUUID(),
    venue: randomUUID(),
    smallRoom: randomUUID(),
    twinRoom: randomUUID(),
    block: randomUUID(),
    treatment: randomUUID(),
    variant60: randomUUID(),
    variant90: randomUUID(),
    camille: randomUUID(),
    hugo: randomUUID(),
    alice: randomUUID(),
    bruno: randomUUID(),
    key: randomBytes(6).toString('hex'),
    secret: randomBytes(32).toString('hex'),
  };
  const file: VenueData = {
    organisations: [{ id: ids.organisation, slug: `org-${tag}`, name: `Organisation ${tag}` }],
    api_keys: [
      {
        id: ids.key,
        secret: ids.secret,
        organisation_id: ids.organisation,
        venue_id: null,
        scopes: ['venues:read'],
        kind: 'dashboard',
        rate_limit_per_min: null,
        revoked: false,
      },
    ],
    venues: [
      {
        id: ids.venue,
        organisation_id: ids.organisation,
        slug: `venue-${tag}`,
        status: 'active',
        venue_type: 'spa',
        name: 'Spa Test',
        name_en: 'Test Spa',
        description: null,
        description_en: null,
        landing_subtitle: null,
        address: '1 rue de Rivoli',
        postal_code: '75001',
        city: 'Paris',
        country: 'FR',
        currency: 'EUR',
        timezone: 'Europe/Paris',
        vat: 20,
        image: null,
        cover_image: null,
        opening_time: '09:00',
        closing_time: '19:00',
        slot_interval: 30,
        schedule: {
          type: 'recurring',
          days_of_week: [1, 2, 3, 4, 5, 6],
          recurrence_interval: 1,
          start_date: '2026-01-01',
          end_date: null,
        },
        one_time_openings: [{ date: '2026-12-27', opening_time: '12:00', closing_time: '18:00' }],
        offert: false,
        booking_hold_enabled: false,
        booking_hold_duration_minutes: 0,
        allow_out_of_hours_booking: false,
        out_of_hours_surcharge_percent: 0,
        room_turnover_buffer_minutes: 15,
        inter_venue_buffer_minutes: 30,
        therapist_response_minutes: 15,
        cancellation_policy: {
          partner: [
            { min_hours_before: 24, fee_percent: 0 },
            { min_hours_before: 0, fee_percent: 100 },
          ],
          customer: [
            { min_hours_before: 48, fee_percent: 0 },
            { min_hours_before: 0, fee_percent: 100 },
          ],
        },
        blocks: [{ id: ids.block, daily: true, start_time: '13:00', end_time: '14:00', reason: 'lunch' }],
        rooms: [
          { id: ids.smallRoom, name: 'Cabine 1', capacity: 1 },
          { id: ids.twinRoom, name: 'Cabine duo', capacity: 2 },
        ],
        treatments: [
          {
            id: ids.treatment,
            name: 'Massage relaxant',
            name_en: 'Relaxing massage',
            description: null,
            description_en: null,
            category: 'massage',
            lead_time_minutes: 60,
            required_skills: ['massage'],
            room_ids: [],
            variants: [
              {
                id: ids.variant60,
                name: '60 min',
                duration_minutes: 60,
                price: { amount: 110, currency: 'EUR' },
                is_default: true,
              },
              {
                id: ids.variant90,
                name: '90 min',
                duration_minutes: 90,
                price: { amount: 150.5, currency: 'EUR' },
                is_default: false,
              },
            ],
          },
        ],
      },
    ],
    therapists: [
      {
        id: ids.camille,
        organisation_id: ids.organisation,
        first_name: 'Camille',
        last_name: 'Martin',
        skills: ['massage'],
        shifts: [{ venue_id: ids.venue, days_of_week: [1, 2, 3, 4, 5], start_time: '09:00', end_time: '17:00' }],
        shift_overrides: [{ venue_id: ids.venue, date: '2026-12-24', start_time: null, end_time: null }],
        absences: [{ start_at: '2026-12-28T00:00:00+01:00', end_at: '2027-01-02T00:00:00+01:00' }],
      },
      {
        id: ids.hugo,
        organisation_id: ids.organisation,
        first_name: 'Hugo',
        last_name: 'Bernard',
        skills: ['massage'],
        shifts: [{ venue_id: ids.venue, days_of_week: [2, 3, 4, 5, 6], start_time: '10:00', end_time: '19:00' }],
        shift_overrides: [],
        absences: [],
      },
    ],
    customers: [
      {
        id: ids.alice,
        organisation_id: ids.organisation,
        first_name: 'Alice',
        last_name: 'Durand',
        email: `alice.${tag}@example.com`,
        phone: '+33612345678',
        language: 'fr',
      },
      {
        id: ids.bruno,
        organisation_id: ids.organisation,
        first_name: 'Bruno',
        last_name: 'Petit',
        email: `bruno.${tag}@example.com`,
        phone: null,
        language: 'en',
      },
    ],
    bookings: [],
  };
  const booking = (overrides: Partial<VenueData['bookings'][number]> = {}): VenueData['bookings'][number] => ({
    id: randomUUID(),
    venue_id: ids.venue,
    variant_id: ids.variant60,
    customer_id: ids.alice,
    start_at: '2026-12-01T10:00:00+01:00',
    status: 'confirmed' as const,
    guest_count: 1,
    total_price: { amount: 110, currency: 'EUR' },
    external_id: null,
    external_reference: null,
    notes: null,
    therapist_ids: [ids.camille],
    ...overrides,
  });
  return { file, ids, booking };
}

/**
 * makeVenueFile's organisation with `customers` customers and `bookings` bookings: history (completed, no_show,
 * cancelled) spread over 2025, and every `liveEvery`-th booking a confirmed one on a day of its own from 2027 on, so
 * each live booking is placed (room and therapist holds) without clashing with another.
 */
export function makeLargeVenueFile(options: { customers: number; bookings: number; liveEvery?: number }) {
  const made = makeVenueFile();
  const { file, ids, booking } = made;
  const tag = file.organisations[0]!.slug;
  file.customers = Array.from({ length: options.customers }, (_, i) => ({
    id: randomUUID(),
    organisation_id: ids.organisation,
    first_name: 'Guest',
    last_name: `Number ${i}`,
    email: `guest.${i}.${tag}@example.com`,
    phone: null,
    language: 'fr',
  }));
  const history = ['completed', 'no_show', 'cancelled'] as const;
  const day = (from: string, n: number) => Temporal.PlainDate.from(from).add({ days: n }).toString();
  let live = 0;
  file.bookings = Array.from({ length: options.bookings }, (_, i) =>
    options.liveEvery && i % options.liveEvery === 0
      ? booking({
          customer_id: file.customers[i % options.customers]!.id,
          start_at: `${day('2027-01-01', live++)}T10:00:00+01:00`,
          external_id: `live-${i}`,
        })
      : booking({
          customer_id: file.customers[i % options.customers]!.id,
          start_at: `${day('2025-01-01', i % 365)}T${String(9 + (i % 8)).padStart(2, '0')}:00:00+01:00`,
          status: history[i % 3],
          external_id: `history-${i}`,
        }),
  );
  return made;
}
