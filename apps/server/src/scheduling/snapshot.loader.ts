import type { Temporal } from 'temporal-polyfill';
import type { Db } from '../db/connect.js';
import type { VenueRow } from '../venues/venues.repository.js';
import type { AvailabilitySnapshot } from './snapshot.js';
import { isoFromEpochMs } from '../lib/instant.js';
import { type SnapshotVariant, toSnapshot } from './snapshot.mapper.js';
import { type SnapshotQuery, selectSnapshotRow } from './snapshot.query.js';

/**
 * Loads everything the slot computation needs for venue-local dates [from, to], in one round trip whatever the
 * length of the range. (The booking transaction reads its snapshot with snapshotSql and maps it with toSnapshot.)
 */
export async function loadSnapshot(
  db: Db,
  venue: VenueRow,
  variant: SnapshotVariant,
  range: { from: Temporal.PlainDate; to: Temporal.PlainDate },
  livemode: boolean,
): Promise<AvailabilitySnapshot> {
  return toSnapshot(venue, variant, await selectSnapshotRow(db, snapshotQuery(venue, variant, range, livemode)));
}

/**
 * What to read for venue-local dates [from, to]. Holds that can touch a slot of these dates: from the
 * inter-venue buffer before the first day starts to the longest reach after the last one (a slot starting just
 * before midnight, its turnover and buffer). A booking decision passes `around` (its own slot) and reads only
 * the holds near it.
 */
export function snapshotQuery(
  venue: VenueRow,
  variant: SnapshotVariant,
  range: { from: Temporal.PlainDate; to: Temporal.PlainDate },
  livemode: boolean,
  around?: { start: Temporal.Instant; end: Temporal.Instant },
): SnapshotQuery {
  const timeZone = venue.timezone ?? 'UTC';
  const reach = {
    minutes: variant.durationMinutes + venue.room_turnover_buffer_minutes + venue.inter_venue_buffer_minutes,
  };
  const windowStart = (around?.start ?? range.from.toZonedDateTime({ timeZone }).toInstant()).subtract({
    minutes: venue.inter_venue_buffer_minutes,
  });
  const windowEnd = (around?.end ?? range.to.add({ days: 1 }).toZonedDateTime({ timeZone }).toInstant()).add(reach);
  return {
    venueId: venue.id,
    organisationId: venue.organisation_id,
    treatmentId: variant.treatmentId,
    requiredSkills: variant.requiredSkills,
    livemode,
    from: range.from.toString(),
    to: range.to.toString(),
    windowStart: isoFromEpochMs(windowStart.epochMilliseconds),
    windowEnd: isoFromEpochMs(windowEnd.epochMilliseconds),
  };
}
