import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../db/connect.js';
import type { Database } from '../db/schema.js';

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
        .where(
          'treatment_id',
          'in',
          treatments.map((t) => t.id),
        )
        .orderBy('position')
        .orderBy('duration_minutes')
        .execute()
    : [];
  return { treatments, variants };
}

/**
 * A variant bookable at the venue of the outer query (its treatment belongs to that venue), with what the slot
 * computation needs of it: a subquery of findVenueWithVariant.
 */
export function venueVariant(eb: ExpressionBuilder<Database, 'venues'>, variantId: string) {
  return eb
    .selectFrom('variants')
    .innerJoin('treatments', 'treatments.id', 'variants.treatment_id')
    .select([
      'variants.id',
      'variants.treatment_id',
      'variants.duration_minutes',
      'treatments.lead_time_minutes',
      'treatments.required_skills',
    ])
    .where('variants.id', '=', variantId)
    .whereRef('treatments.venue_id', '=', 'venues.id');
}
