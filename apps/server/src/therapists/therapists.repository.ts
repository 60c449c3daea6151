import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Therapists present at a venue: a weekly shift or a dated override there. They are the ones a booking still
 * waiting for a therapist is offered to (when qualified), and the ones `spa therapists list` shows.
 */
export function therapistsAtVenue(db: Kysely<Database>, venueId: string) {
  return db
    .selectFrom('therapists')
    .select([
      'therapists.id',
      'therapists.organisation_id',
      'therapists.first_name',
      'therapists.last_name',
      'therapists.skills',
    ])
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('therapist_shifts')
            .select('therapist_shifts.therapist_id')
            .whereRef('therapist_shifts.therapist_id', '=', 'therapists.id')
            .where('therapist_shifts.venue_id', '=', venueId),
        ),
        eb.exists(
          eb
            .selectFrom('therapist_shift_overrides')
            .select('therapist_shift_overrides.therapist_id')
            .whereRef('therapist_shift_overrides.therapist_id', '=', 'therapists.id')
            .where('therapist_shift_overrides.venue_id', '=', venueId),
        ),
      ]),
    )
    .orderBy('therapists.last_name')
    .orderBy('therapists.first_name')
    .orderBy('therapists.id')
    .execute();
}
