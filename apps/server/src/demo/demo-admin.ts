import { randomUUID } from 'node:crypto';
import type { Temporal } from 'temporal-polyfill';
import { verifyPassword } from '../dashboard/passwords.js';
import { findPersonForSignIn, insertPerson } from '../dashboard/people.repository.js';
import type { Db } from '../db/connect.js';

/**
 * The demo organisation's dashboard admin. Fixed and published like the demo key, so the README's and
 * docs/dashboard.md's commands work on a fresh clone; it exists only in the embedded demo database.
 */
export const DEMO_ADMIN = { email: 'admin@demo.example', password: 'lumiere-demo-admin' } as const;

/**
 * hashPassword(DEMO_ADMIN.password), made once and kept here: each argon2 operation costs ~150 ms of a first start
 * that has 2 s in all, and the password is published anyway, so a fixed salt hides nothing. A test checks that it
 * verifies and carries hashPassword's current parameters (test/import/demo-seed.test.ts).
 */
export const DEMO_ADMIN_PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$eHrYQnFLMaPXWBPLoTN4fg$PrslamOaR9jNKHaohfave7MYUa8YwmL5MF+wDAdmkJY';

/** Adds the demo admin to the demo organisation, when the demo data has just been loaded. */
export async function addDemoAdmin(db: Db, organisationId: string, now: Temporal.Instant): Promise<void> {
  await db.transaction().execute((trx) =>
    insertPerson(trx, {
      id: randomUUID(),
      organisationId,
      email: DEMO_ADMIN.email,
      role: 'admin',
      passwordHash: DEMO_ADMIN_PASSWORD_HASH,
      venueIds: [],
      now,
    }),
  );
}

/**
 * The demo admin's sign-in, while the demo admin exists with the published password; else undefined. The stored
 * hash is still the one addDemoAdmin wrote on every start until someone sets a new password, so the comparison of
 * strings answers without argon2; another hash is verified.
 */
export async function demoAdminSignIn(db: Db): Promise<typeof DEMO_ADMIN | undefined> {
  const person = await findPersonForSignIn(db, DEMO_ADMIN.email);
  if (!person) return undefined;
  const unchanged =
    person.password_hash === DEMO_ADMIN_PASSWORD_HASH ||
    (await verifyPassword(person.password_hash, DEMO_ADMIN.password));
  return unchanged ? DEMO_ADMIN : undefined;
}
