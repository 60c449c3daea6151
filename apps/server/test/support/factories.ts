import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { SCOPES } from '@spa/contract';
import { formatApiKey, generateKeyParts, type KeyVault } from '../../src/auth/api-key.js';
import type { Db } from '../../src/db/connect.js';
import type { Database } from '../../src/db/schema.js';
import { EVERY_DAY } from './calendar.js';

/**
 * Small factories: each test builds exactly the data it reads, with overrides for what matters to it.
 * Ids and slugs are unique per call, so tests in one file never collide.
 */
let sequence = 0;

/** Kept here too for the tests that import it with the factories. */
export { EVERY_DAY } from './calendar.js';

const next = () => ++sequence;

export const DEFAULT_POLICY = {
  partner: [
    { min_hours_before: 24, fee_percent: 0 },
    { min_hours_before: 2, fee_percent: 50 },
    { min_hours_before: 0, fee_percent: 100 },
  ],
  customer: [
    { min_hours_before: 48, fee_percent: 0 },
    { min_hours_before: 0, fee_percent: 100 },
  ],
};

export async function makeOrganisation(db: Db, overrides: Partial<Insertable<Database['organisations']>> = {}) {
  const n = next();
  const row = {
    id: randomUUID(),
    slug: `org-${n}-${randomUUID().slice(0, 6)}`,
    name: `Organisation ${n}`,
    ...overrides,
  };
  await db.insertInto('organisations').values(row).execute();
  return row;
}

export async function makeVenue(
  db: Db,
  organisationId: string,
  overrides: Partial<Insertable<Database['venues']>> = {},
) {
  const n = next();
  const row = {
    id: randomUUID(),
    organisation_id: organisationId,
    slug: `venue-${n}`,
    status: 'active',
    venue_type: 'spa' as const,
    name: `Spa ${n}`,
    name_en: `Spa ${n} (en)`,
    currency: 'EUR',
    timezone: 'Europe/Paris',
    vat: 20,
    opening_time: '09:00:00',
    closing_time: '18:00:00',
    slot_interval: 30,
    schedule_type: 'recurring' as const,
    days_of_week: EVERY_DAY,
    recurrence_interval: 1,
    recurring_start_date: '2026-01-01',
    recurring_end_date: null,
    cancellation_policy: JSON.stringify(DEFAULT_POLICY),
    ...overrides,
  };
  await db.insertInto('venues').values(row).execute();
  return row;
}

export async function makeRoom(db: Db, venueId: string, overrides: Partial<Insertable<Database['rooms']>> = {}) {
  const row = { id: randomUUID(), venue_id: venueId, name: `Room ${next()}`, capacity: 1, ...overrides };
  await db.insertInto('rooms').values(row).execute();
  return row;
}

export async function makeTreatment(
  db: Db,
  venueId: string,
  overrides: Partial<Insertable<Database['treatments']>> & {
    variants?: Partial<Insertable<Database['variants']>>[];
  } = {},
) {
  const { variants = [{}], ...treatmentOverrides } = overrides;
  const treatment = {
    id: randomUUID(),
    venue_id: venueId,
    name: `Soin ${next()}`,
    lead_time_minutes: 0,
    required_skills: ['massage'],
    ...treatmentOverrides,
  };
  await db.insertInto('treatments').values(treatment).execute();
  const variantRows = variants.map((v, index) => ({
    id: randomUUID(),
    treatment_id: treatment.id,
    position: index,
    name: `${60 + index * 30} min`,
    duration_minutes: 60 + index * 30,
    price_minor: 9000 + index * 4000,
    currency: 'EUR',
    is_default: index === 0,
    ...v,
  }));
  await db.insertInto('variants').values(variantRows).execute();
  return { ...treatment, variants: variantRows, variant: variantRows[0]! };
}

export async function makeTherapist(
  db: Db,
  organisationId: string,
  overrides: Partial<Insertable<Database['therapists']>> & {
    shifts?: Omit<Insertable<Database['therapist_shifts']>, 'therapist_id'>[];
  } = {},
) {
  const { shifts = [], ...rest } = overrides;
  const row = {
    id: randomUUID(),
    organisation_id: organisationId,
    first_name: 'Alex',
    last_name: `Therapist ${next()}`,
    skills: ['massage'],
    ...rest,
  };
  await db.insertInto('therapists').values(row).execute();
  if (shifts.length)
    await db
      .insertInto('therapist_shifts')
      .values(shifts.map((s) => ({ ...s, therapist_id: row.id })))
      .execute();
  return row;
}

export async function makeCustomer(
  db: Db,
  organisationId: string,
  overrides: Partial<Insertable<Database['customers']>> = {},
) {
  const n = next();
  const row = {
    id: randomUUID(),
    organisation_id: organisationId,
    first_name: 'Claire',
    last_name: `Martin ${n}`,
    email: `claire.${n}.${randomUUID().slice(0, 6)}@example.com`,
    ...overrides,
  };
  await db.insertInto('customers').values(row).execute();
  return row;
}

/** A booking row as history (no reservations): for the read endpoints. */
export async function makeBooking(
  db: Db,
  refs: { venueId: string; treatmentId: string; variantId: string; customerId: string },
  overrides: Partial<Insertable<Database['bookings']>> = {},
) {
  const row = {
    id: randomUUID(),
    venue_id: refs.venueId,
    treatment_id: refs.treatmentId,
    variant_id: refs.variantId,
    customer_id: refs.customerId,
    status: 'completed' as const,
    start_at: '2026-10-01T09:00:00Z',
    end_at: '2026-10-01T10:00:00Z',
    guest_count: 1,
    client_type: 'external' as const,
    total_price_minor: 9000,
    currency: 'EUR',
    ...overrides,
  };
  await db.insertInto('bookings').values(row).execute();
  return row;
}

/** An API key row; returns the full key value to send. */
export async function makeApiKey(
  db: Db,
  vault: KeyVault,
  organisationId: string,
  overrides: {
    venueId?: string | null;
    scopes?: readonly string[];
    kind?: 'dashboard' | 'operator';
    revoked?: boolean;
    rateLimitPerMin?: number | null;
    id?: string;
    /** False for a test key (`sk_test_`). */
    livemode?: boolean;
  } = {},
) {
  const livemode = overrides.livemode ?? true;
  const parts = { ...generateKeyParts(livemode), ...(overrides.id ? { id: overrides.id } : {}) };
  await db
    .insertInto('api_keys')
    .values({
      id: parts.id,
      organisation_id: organisationId,
      venue_id: overrides.venueId ?? null,
      kind: overrides.kind ?? 'operator',
      scopes: [...(overrides.scopes ?? SCOPES)],
      rate_limit_per_min: overrides.rateLimitPerMin ?? null,
      secret_hmac: vault.hmac(parts.secret),
      secret_encrypted: vault.encrypt(parts.secret, parts.id),
      revoked_at: overrides.revoked ? new Date().toISOString() : null,
      livemode,
    })
    .execute();
  return { id: parts.id, key: formatApiKey(parts) };
}
