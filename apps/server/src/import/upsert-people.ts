import { anyUuid } from '../db/any-of.js';
import type { VenueData } from './venue-data.schema.js';
import { batchesOf, insertRows, type Trx, upsertById } from './upsert.js';

/** Therapists with their shifts, overrides and absences (replaced by the file's). */
export async function upsertTherapists(trx: Trx, therapists: VenueData['therapists']): Promise<void> {
  await upsertById(
    trx,
    'therapists',
    therapists.map((t) => ({
      id: t.id,
      organisation_id: t.organisation_id,
      first_name: t.first_name,
      last_name: t.last_name,
      skills: t.skills,
    })),
  );
  const ids = therapists.map((t) => t.id);
  if (ids.length === 0) return;
  await trx.deleteFrom('therapist_shifts').where('therapist_id', '=', anyUuid(ids)).execute();
  await trx.deleteFrom('therapist_shift_overrides').where('therapist_id', '=', anyUuid(ids)).execute();
  await trx.deleteFrom('therapist_absences').where('therapist_id', '=', anyUuid(ids)).execute();
  const shifts = therapists.flatMap((t) => t.shifts.map((s) => ({ therapist_id: t.id, ...s })));
  const overrides = therapists.flatMap((t) => t.shift_overrides.map((o) => ({ therapist_id: t.id, ...o })));
  const absences = therapists.flatMap((t) => t.absences.map((a) => ({ therapist_id: t.id, ...a })));
  await insertRows(trx, 'therapist_shifts', shifts);
  await insertRows(trx, 'therapist_shift_overrides', overrides);
  await insertRows(trx, 'therapist_absences', absences);
}

/** A statement per batch, each batch's rows made just before it is sent. */
export async function upsertCustomers(trx: Trx, customers: VenueData['customers']): Promise<void> {
  for (const batch of batchesOf(customers))
    await upsertById(
      trx,
      'customers',
      batch.map((c) => ({
        id: c.id,
        organisation_id: c.organisation_id,
        first_name: c.first_name,
        last_name: c.last_name,
        email: c.email,
        phone: c.phone,
        language: c.language,
      })),
    );
}

export async function upsertOrganisations(trx: Trx, organisations: VenueData['organisations']): Promise<void> {
  await upsertById(trx, 'organisations', organisations);
}
