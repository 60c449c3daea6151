import type { Db } from '../db/connect.js';

/** Treatments of a venue with their variants, in two set-based queries. */
export async function listTreatments(db: Db, venueId: string) {
  const treatments = await db
    .selectFrom('treatments')
    .select(['id', 'name', 'name_en', 'description', 'description_en', 'category', 'lead_time_minutes'])
    .where('venue_id', '=', venueId)
    .orderBy('position')
    .orderBy('name')
    .execute();
  const variants = treatments.length
    ? await db
        .selectFrom('variants')
        .select(['id', 'treatment_id', 'name', 'duration_minutes', 'price_minor', 'currency', 'is_default'])
        .where('treatment_id', 'in', treatments.map((t) => t.id))
        .orderBy('position')
        .orderBy('duration_minutes')
        .execute()
    : [];
  return { treatments, variants };
}

/** A variant bookable at this venue: its treatment belongs to the venue. */
export async function findVenueVariant(db: Db, venueId: string, variantId: string) {
  return db
    .selectFrom('variants')
    .innerJoin('treatments', 'treatments.id', 'variants.treatment_id')
    .select([
      'variants.id',
      'variants.treatment_id',
      'variants.duration_minutes',
      'variants.price_minor',
      'variants.currency',
      'treatments.lead_time_minutes',
      'treatments.required_skills',
    ])
    .where('variants.id', '=', variantId)
    .where('treatments.venue_id', '=', venueId)
    .executeTakeFirst();
}
