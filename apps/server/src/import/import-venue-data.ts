import { Temporal } from 'temporal-polyfill';
import type { KeyVault } from '../auth/api-key.js';
import { LIVE_STATUSES } from '../shared/booking-status.js';
import type { Db } from '../db/connect.js';
import { sentence } from '../http/zod-problems.js';
import { checkAgainstDatabase } from './check-database.js';
import { ImportValidationError } from './import-error.js';
import { referenceProblemsOfMalformed } from './salvage.js';
import { upsertApiKeys } from './upsert-keys.js';
import { releaseFileBookings, upsertBookings } from './upsert-bookings.js';
import { upsertCustomers, upsertOrganisations, upsertTherapists } from './upsert-people.js';
import { dropMissingChildren, upsertVenue } from './upsert-venues.js';
import { type VenueData, VenueDataFile } from './venue-data.schema.js';
import { validateReferences } from './validate-references.js';

export { ImportValidationError } from './import-error.js';

/** Rows of the file per entity (each inserted, updated, or already equal), and what the operator should know. */
export interface ImportSummary {
  counts: Record<
    | 'organisations'
    | 'api_keys'
    | 'venues'
    | 'rooms'
    | 'blocks'
    | 'treatments'
    | 'variants'
    | 'therapists'
    | 'customers'
    | 'bookings'
    | 'live_bookings',
    number
  >;
  notices: string[];
}

/**
 * Validates the whole file first, then upserts it in one transaction: an import is all or nothing, and
 * importing the same file twice changes nothing. Throws ImportValidationError with every problem found.
 */
export async function importVenueData(
  db: Db,
  file: unknown,
  vault: KeyVault,
  now = Temporal.Now.instant(),
): Promise<ImportSummary> {
  const data = parseVenueData(file);
  const notices = await db.transaction().execute(async (trx) => {
    const conflicts = await checkAgainstDatabase(trx, data);
    if (conflicts.length) throw new ImportValidationError(conflicts);
    await releaseFileBookings(trx, data);
    await upsertOrganisations(trx, data.organisations);
    for (const venue of data.venues) await upsertVenue(trx, venue);
    await upsertTherapists(trx, data.therapists);
    await upsertCustomers(trx, data.customers);
    const problems = await upsertBookings(trx, data, now);
    if (problems.length) throw new ImportValidationError(problems);
    for (const venue of data.venues) await dropMissingChildren(trx, venue);
    return upsertApiKeys(trx, vault, data.api_keys, now.toString());
  });
  return { counts: count(data), notices };
}

/** The file as typed data, or every schema and cross-reference problem with its JSON path. */
export function parseVenueData(file: unknown): VenueData {
  const parsed = VenueDataFile.safeParse(file);
  if (!parsed.success) {
    const shape = parsed.error.issues.map((issue) => {
      const path = issue.path.reduce<string>(
        (acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part),
        '',
      );
      return { path, message: `${path || '(file)'}: ${sentence(issue)}` };
    });
    throw new ImportValidationError([...shape, ...referenceProblemsOfMalformed(file, shape)]);
  }
  const problems = validateReferences(parsed.data);
  if (problems.length) throw new ImportValidationError(problems);
  return parsed.data;
}

function count(data: VenueData): ImportSummary['counts'] {
  const treatments = data.venues.flatMap((v) => v.treatments);
  return {
    organisations: data.organisations.length,
    api_keys: data.api_keys.length,
    venues: data.venues.length,
    rooms: data.venues.reduce((n, v) => n + v.rooms.length, 0),
    blocks: data.venues.reduce((n, v) => n + v.blocks.length, 0),
    treatments: treatments.length,
    variants: treatments.reduce((n, t) => n + t.variants.length, 0),
    therapists: data.therapists.length,
    customers: data.customers.length,
    bookings: data.bookings.length,
    live_bookings: data.bookings.filter((b) => LIVE_STATUSES.includes(b.status)).length,
  };
}
