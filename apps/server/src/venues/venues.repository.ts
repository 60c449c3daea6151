import { jsonObjectFrom } from 'kysely/helpers/postgres';
import type { Db } from '../db/connect.js';
import { venueVariant } from '../treatments/treatments.repository.js';

const SUMMARY_COLUMNS = [
  'id',
  'slug',
  'name',
  'name_en',
  'description',
  'description_en',
  'address',
  'postal_code',
  'city',
  'country',
  'currency',
  'venue_type',
  'timezone',
  'image',
  'cover_image',
] as const;

const DETAIL_COLUMNS = [
  ...SUMMARY_COLUMNS,
  'organisation_id',
  'status',
  'landing_subtitle',
  'vat',
  'opening_time',
  'closing_time',
  'slot_interval',
  'schedule_type',
  'days_of_week',
  'recurrence_interval',
  'recurring_start_date',
  'recurring_end_date',
  'offert',
  'booking_hold_enabled',
  'booking_hold_duration_minutes',
  'allow_out_of_hours_booking',
  'out_of_hours_surcharge_percent',
  'room_turnover_buffer_minutes',
  'inter_venue_buffer_minutes',
  'cancellation_policy',
] as const;

export type VenueRow = NonNullable<Awaited<ReturnType<typeof findVenue>>>;

export interface VenueScope {
  organisationId: string;
  venueId: string | null;
}

/** Active venues the key may see, ordered by name then id so pages are stable. */
export async function listVenues(db: Db, scope: VenueScope, page: { offset: number; limit: number }) {
  let query = db
    .selectFrom('venues')
    .where('organisation_id', '=', scope.organisationId)
    .where('status', '=', 'active');
  if (scope.venueId) query = query.where('id', '=', scope.venueId);
  const [rows, total] = await Promise.all([
    query.select(SUMMARY_COLUMNS).orderBy('name').orderBy('id').offset(page.offset).limit(page.limit).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.count) };
}

/** A venue by id, or by slug within an organisation (slugs are unique per organisation only). */
export type VenueKey = { id: string } | { organisationId: string; slug: string };

function selectVenue(db: Db, key: VenueKey) {
  const query = db.selectFrom('venues').select(DETAIL_COLUMNS);
  return 'id' in key
    ? query.where('id', '=', key.id)
    : query.where('organisation_id', '=', key.organisationId).where('slug', '=', key.slug);
}

export async function findVenue(db: Db, key: VenueKey) {
  return selectVenue(db, key).executeTakeFirst();
}

/**
 * The venue and one variant bookable there (null when the venue has no such variant), in one round trip:
 * availability and booking requests name both, and each round trip costs more than this SQL.
 */
export async function findVenueWithVariant(db: Db, key: VenueKey, variantId: string) {
  return selectVenue(db, key)
    .select((eb) => jsonObjectFrom(venueVariant(eb, variantId)).as('variant'))
    .executeTakeFirst();
}
