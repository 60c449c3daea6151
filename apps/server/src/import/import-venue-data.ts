import { Temporal } from 'temporal-polyfill';
import type { KeyVault } from '../auth/api-key.js';
import type { Db } from '../db/connect.js';
import type { FieldProblem } from '../http/domain-errors.js';
import { sentence } from '../http/zod-problems.js';
import { upsertApiKeys } from './upsert-keys.js';
import { upsertBookings } from './upsert-bookings.js';
import { upsertCustomers, upsertOrganisations, upsertTherapists } from './upsert-people.js';
import { upsertVenue } from './upsert-venues.js';
import { type VenueData, VenueDataFile } from './venue-data.schema.js';
import { validateReferences } from './validate-references.js';

/** Every problem of the file, each with its JSON path; nothing was written. */
export class ImportValidationError extends Error {
  constructor(readonly problems: FieldProblem[]) {
    super(`The venue data file has ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  }
}

export type ImportSummary = Record<'organisations' | 'api_keys' | 'venues' | 'rooms' | 'treatments' | 'variants' | 'therapists' | 'customers' | 'bookings', number>;

/** Validates the whole file first, then upserts it in one transaction: an import is all or nothing, and idempotent. */
export async function importVenueData(db: Db, file: unknown, vault: KeyVault, now = Temporal.Now.instant()): Promise<ImportSummary> {
  const data = parseVenueData(file);
  await db.transaction().execute(async (trx) => {
    await upsertOrganisations(trx, data.organisations);
    for (const venue of data.venues) await upsertVenue(trx, venue);
    await upsertTherapists(trx, data.therapists);
    await upsertCustomers(trx, data.customers);
    const problems = await upsertBookings(trx, data);
    if (problems.length) throw new ImportValidationError(problems);
    await upsertApiKeys(trx, vault, data.api_keys, now.toString());
  });
  return {
    organisations: data.organisations.length,
    api_keys: data.api_keys.length,
    venues: data.venues.length,
    rooms: data.venues.reduce((n, v) => n + v.rooms.length, 0),
    treatments: data.venues.reduce((n, v) => n + v.treatments.length, 0),
    variants: data.venues.reduce((n, v) => n + v.treatments.reduce((m, t) => m + t.variants.length, 0), 0),
    therapists: data.therapists.length,
    customers: data.customers.length,
    bookings: data.bookings.length,
  };
}

export function parseVenueData(file: unknown): VenueData {
  const parsed = VenueDataFile.safeParse(file);
  if (!parsed.success) {
    throw new ImportValidationError(
      parsed.error.issues.map((issue) => {
        const path = issue.path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
        return { path, message: `${path || '(file)'}: ${sentence(issue)}` };
      }),
    );
  }
  const problems = validateReferences(parsed.data);
  if (problems.length) throw new ImportValidationError(problems);
  return parsed.data;
}
