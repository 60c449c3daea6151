import { randomUUID } from 'node:crypto';
import { parseSetCookie } from 'cookie';
import type { Express } from 'express';
import request, { type Test } from 'supertest';
import { expect } from 'vitest';
import { hashPassword } from '../../src/dashboard/passwords.js';
import type { Db } from '../../src/db/connect.js';
import { REQUEST_ID } from '../support/api.js';
import { makeOrganisation, makeVenue } from '../support/factories.js';
import { TEST_PUBLIC_URL } from '../support/test-app.js';

/** The password every test person has unless a test sets one. */
export const PASSWORD = 'correct horse battery staple';

/** A person stored directly (as an accepted invitation leaves them), for tests about what comes after. */
export async function makePerson(
  db: Db,
  organisationId: string,
  options: { role?: 'admin' | 'desk'; email?: string; password?: string; venueIds?: string[] } = {},
) {
  const person = {
    id: randomUUID(),
    email: options.email ?? `person-${randomUUID().slice(0, 8)}@example.com`,
    role: options.role ?? 'admin',
    password: options.password ?? PASSWORD,
  };
  const now = new Date().toISOString();
  await db
    .insertInto('people')
    .values({
      id: person.id,
      organisation_id: organisationId,
      email: person.email,
      role: person.role,
      password_hash: await hashPassword(person.password),
      created_at: now,
      password_changed_at: now,
    })
    .execute();
  if (options.venueIds?.length)
    await db
      .insertInto('person_venues')
      .values(options.venueIds.map((venue_id) => ({ person_id: person.id, venue_id })))
      .execute();
  return person;
}

/** An organisation with two venues, an admin and a desk person listed for the first venue. */
export async function makeDashboardOrganisation(db: Db) {
  const org = await makeOrganisation(db);
  const venue = await makeVenue(db, org.id);
  const otherVenue = await makeVenue(db, org.id);
  const admin = await makePerson(db, org.id, { role: 'admin' });
  const desk = await makePerson(db, org.id, { role: 'desk', venueIds: [venue.id] });
  return { org, venue, otherVenue, admin, desk };
}

/** Requests as the dashboard's own page sends them: its Origin, the fixed request id, and the cookie if any. */
export function dashboardOf(app: Express, origin = TEST_PUBLIC_URL) {
  const as = (test: Test, session?: Session) => {
    let t = test.set('X-Request-Id', REQUEST_ID).set('Origin', origin);
    if (session) t = t.set('Cookie', `spa_session=${session.token}`).set('X-CSRF-Token', session.csrf);
    return t;
  };
  const api = (path: string) => `/dashboard/api${path}`;
  return {
    get: (path: string, session?: Session) => as(request(app).get(api(path)), session),
    post: (path: string, body: object | undefined, session?: Session) =>
      as(request(app).post(api(path)), session).send(body),
    delete: (path: string, session?: Session) => as(request(app).delete(api(path)), session),
    /** Signs in and answers the session: the cookie's token and the CSRF token of who-am-I. */
    signIn: async (email: string, password = PASSWORD): Promise<Session> => {
      const res = await as(request(app).post(api('/session'))).send({ email, password });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { token: sessionCookieOf(res).value ?? '', csrf: res.body.data.csrf_token as string };
    },
  };
}

export type Dashboard = ReturnType<typeof dashboardOf>;

export interface Session {
  token: string;
  csrf: string;
}

/** The spa_session Set-Cookie of an answer, parsed with its attributes. */
export function sessionCookieOf(res: { headers: Record<string, unknown> }) {
  const headers = (res.headers['set-cookie'] ?? []) as string[];
  const found = headers.map((h) => parseSetCookie(h)).find((c) => c.name === 'spa_session');
  if (!found) throw new Error(`no spa_session cookie in ${JSON.stringify(headers)}`);
  return found;
}

/** The audit rows of an organisation, oldest first. */
export function auditRows(db: Db, organisationId: string) {
  return db
    .selectFrom('audit_events')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .orderBy('created_at')
    .orderBy('action')
    .execute();
}
