import type { Db } from '../db/connect.js';
import { OperatorError } from '../errors/operator-error.js';
import { findVenuesBySlug } from './lookups.repository.js';

/** `--venue SLUG [--org SLUG]` as one venue: a slug is unique within its organisation only. */
export async function resolveVenue(db: Db, slug: string, orgSlug: string | undefined) {
  const venues = await findVenuesBySlug(db, slug, orgSlug);
  const [venue, ...others] = venues;
  if (!venue) throw new OperatorError(`No venue ${slug}${orgSlug === undefined ? '' : ` in organisation ${orgSlug}`}`);
  if (others.length)
    throw new OperatorError(
      `Venue slug ${slug} exists in several organisations (${venues.map((v) => v.organisation).join(', ')}); add --org SLUG`,
    );
  return venue;
}
