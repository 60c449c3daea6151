import { Temporal } from 'temporal-polyfill';
import type { KeyVault } from '../auth/api-key.js';
import type { Db } from '../db/connect.js';
import { compare, type Entity, type EntityChanges, fingerprints } from './change-report.js';
import { checkAgainstDatabase } from './check-database.js';
import { ImportValidationError } from './import-error.js';
import { problemOf, type ShapedVenueFile } from './read-venue-stream.js';
import { referenceProblemsOfMalformed, wellShapedPart } from './salvage.js';
import { loadStoredReferences, NO_STORED_REFERENCES } from './stored-references.js';
import type { Trx } from './upsert.js';
import { upsertApiKeys } from './upsert-keys.js';
import { releaseFileBookings, upsertBookings } from './upsert-bookings.js';
import { upsertCustomers, upsertOrganisations, upsertTherapists } from './upsert-people.js';
import { dropMissingChildren, upsertVenue } from './upsert-venues.js';
import { type VenueData, VenueDataFile } from './venue-data.schema.js';
import { validateReferences } from './validate-references.js';

export { ImportValidationError, UnreadableVenueFileError } from './import-error.js';
export { readVenueStream, type ShapedVenueFile } from './read-venue-stream.js';

/** What the import did, per entity of the file (created, updated, unchanged), and what the operator should know. */
export interface ImportSummary {
  changes: Record<Entity, EntityChanges>;
  notices: string[];
}

/**
 * Validates the whole file first (its shape, then its references to itself and to what the database already
 * holds), then upserts it, all in one transaction: an import is all or nothing, and importing the same file
 * twice changes nothing. Throws ImportValidationError with every problem found.
 */
export async function importVenueData(
  db: Db,
  file: unknown,
  vault: KeyVault,
  now = Temporal.Now.instant(),
): Promise<ImportSummary> {
  return importChecked(db, (trx) => parseVenueData(trx, file), vault, now);
}

/** importVenueData for a file already read and shape-checked entry by entry (readVenueStream). */
export async function importShapedVenueData(
  db: Db,
  file: ShapedVenueFile,
  vault: KeyVault,
  now = Temporal.Now.instant(),
): Promise<ImportSummary> {
  return importChecked(db, (trx) => checkShapedFile(trx, file), vault, now);
}

async function importChecked(
  db: Db,
  check: (trx: Trx) => Promise<VenueData>,
  vault: KeyVault,
  now: Temporal.Instant,
): Promise<ImportSummary> {
  return db.transaction().execute(async (trx) => {
    const data = await check(trx);
    const conflicts = await checkAgainstDatabase(trx, data);
    if (conflicts.length) throw new ImportValidationError(conflicts);
    const before = await fingerprints(trx, data);
    await releaseFileBookings(trx, data);
    await upsertOrganisations(trx, data.organisations);
    for (const venue of data.venues) await upsertVenue(trx, venue);
    await upsertTherapists(trx, data.therapists);
    await upsertCustomers(trx, data.customers);
    const problems = await upsertBookings(trx, data, now);
    if (problems.length) throw new ImportValidationError(problems);
    for (const venue of data.venues) await dropMissingChildren(trx, venue);
    const notices = await upsertApiKeys(trx, vault, data.api_keys, now.toString());
    return { changes: compare(before, await fingerprints(trx, data)), notices };
  });
}

/** The file as typed data, or every schema and cross-reference problem with its JSON path. */
async function parseVenueData(trx: Trx, file: unknown): Promise<VenueData> {
  const parsed = VenueDataFile.safeParse(file);
  if (!parsed.success) {
    const shape = parsed.error.issues.map((issue) => problemOf(issue, issue.path));
    const part = wellShapedPart(file);
    const stored = part ? await loadStoredReferences(trx, part.data) : NO_STORED_REFERENCES;
    throw new ImportValidationError([...shape, ...(part ? referenceProblemsOfMalformed(part, shape, stored) : [])]);
  }
  const problems = validateReferences(parsed.data, await loadStoredReferences(trx, parsed.data));
  if (problems.length) throw new ImportValidationError(problems);
  return parsed.data;
}

/** The same checks for a file read entry by entry: its shape problems are known, its references not yet. */
async function checkShapedFile(trx: Trx, { part, shapeProblems }: ShapedVenueFile): Promise<VenueData> {
  const stored = await loadStoredReferences(trx, part.data);
  if (shapeProblems.length)
    throw new ImportValidationError([...shapeProblems, ...referenceProblemsOfMalformed(part, shapeProblems, stored)]);
  const problems = validateReferences(part.data, stored);
  if (problems.length) throw new ImportValidationError(problems);
  return part.data;
}
