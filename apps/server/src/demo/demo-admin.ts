import { randomUUID } from 'node:crypto';
import type { Temporal } from 'temporal-polyfill';
import { hashPassword, verifyPassword } from '../dashboard/passwords.js';
import { findPersonForSignIn, insertPerson } from '../dashboard/people.repository.js';
import type { Db } from '../db/connect.js';

/**
 * The demo organisation's dashboard admin. Fixed and published like the demo key, so the README's and
 * docs/dashboard.md's commands work on a fresh clone; it exists only in the embedded demo database.
 */
export const DEMO_ADMIN = { email: 'admin@demo.example', password: 'lumiere-demo-admin' } as const;

/** Adds the demo admin to the demo organisation, when the demo data has just been loaded. */
export async function addDemoAdmin(db: Db, organisationId: string, now: Temporal.Instant): Promise<void> {
  const passwordHash = await hashPassword(DEMO_ADMIN.password);
  await db.transaction().execute((trx) =>
    insertPerson(trx, {
      id: randomUUID(),
      organisationId,
      email: DEMO_ADMIN.email,
      role: 'admin',
      passwordHash,
      venueIds: [],
      now,
    }),
  );
}

/** The demo admin's sign-in, while the demo admin exists with the published password; else undefined. */
export async function demoAdminSignIn(db: Db): Promise<typeof DEMO_ADMIN | undefined> {
  const person = await findPersonForSignIn(db, DEMO_ADMIN.email);
  if (!person || !(await verifyPassword(person.password_hash, DEMO_ADMIN.password))) return undefined;
  return DEMO_ADMIN;
}
