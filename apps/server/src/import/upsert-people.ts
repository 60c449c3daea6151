import type { VenueData } from './venue-data.schema.js';
import { type Trx, upsertById } from './upsert.js';

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
  await trx.deleteFrom('therapist_shifts').where('therapist_id', 'in', ids).execute();
  await trx.deleteFrom('therapist_shift_overrides').where('therapist_id', 'in', ids).execute();
  await trx.deleteFrom('therapist_absences').where('therapist_id', 'in', ids).execute();
  const shifts = therapists.flatMap((t) => t.shifts.map((s) => ({ therapist_id: t.id, ...s })));
  const overrides = therapists.flatMap((t) => t.shift_overrides.map((o) => ({ therapist_id: t.id, ...o })));
  const absences = therapists.flatMap((t) => t.absences.map((a) => ({ therapist_id: t.id, ...a })));
  if (shifts.length) await trx.insertInto('therapist_shifts').values(shifts).execute();
  if (overrides.length) await trx.insertInto('therapist_shift_overrides').values(overrides).execute();
  if (absences.length) await trx.insertInto('therapist_absences').values(absences).execute();
}

export async function upsertCustomers(trx: Trx, customers: VenueData['customers']): Promise<void> {
  await upsertById(
    trx,
    'customers',
    customers.map((c) => ({
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
