import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { KeyVault } from '../../src/auth/api-key.js';
import { connect } from '../../src/db/connect.js';
import { error } from '../support/api.js';
import { makeOrganisation } from '../support/factories.js';
import { withDatabase } from '../support/postgres-admin.js';
import { setup, TEST_PUBLIC_URL } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';
import { auditRows, dashboardOf, makePerson, PASSWORD, sessionCookieOf } from './dashboard-support.js';

const INVALID = error('Invalid email or password');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

describe('signing in to the dashboard', () => {
  const ctx = setup();
  const dash = () => dashboardOf(ctx.app);

  it('answers a wrong password and an unknown email alike, and records the failure of a known one', async () => {
    const org = await makeOrganisation(ctx.db);
    const person = await makePerson(ctx.db, org.id);
    const wrong = await dash().post('/session', { email: person.email, password: 'not the password' });
    const unknown = await dash().post('/session', { email: 'nobody@example.com', password: 'not the password' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
    const rows = await auditRows(ctx.db, org.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'session.sign_in_failed',
      actor_type: 'person',
      actor_person_id: person.id,
      target_type: 'person',
      target_id: person.id,
    });
    // Nothing of the password reached the log.
    expect(JSON.stringify(rows)).not.toContain('not the password');
  });

  it('takes as long for an unknown email as for a wrong password (medians of interleaved tries)', async () => {
    const org = await makeOrganisation(ctx.db);
    const TRIES = 12;
    // One person per try, so the per-email throttle (5 failures) never answers instead of the password check.
    const people = await Promise.all(Array.from({ length: TRIES }, () => makePerson(ctx.db, org.id)));
    const timed = async (email: string) => {
      const started = performance.now();
      const res = await dash().post('/session', { email, password: 'not the password' });
      expect(res.status).toBe(401);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      known.push(await timed(people[i]!.email));
      unknown.push(await timed(`nobody-${i}@example.com`));
    }
    // Without the dummy verification an unknown email answers in a few milliseconds against tens for argon2id:
    // a ratio far outside these bounds. Load on a shared machine moves both medians, not their ratio.
    const ratio = median(unknown) / median(known);
    expect(ratio, `medians ${median(unknown).toFixed(1)} ms vs ${median(known).toFixed(1)} ms`).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it('throttles an email after 5 failures with 429 and Retry-After, even for the right password', async () => {
    const org = await makeOrganisation(ctx.db);
    const person = await makePerson(ctx.db, org.id);
    for (let i = 0; i < 5; i++)
      expect((await dash().post('/session', { email: person.email, password: 'wrong password' })).status).toBe(401);
    const blocked = await dash().post('/session', { email: person.email, password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual(error('Rate limit exceeded'));
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Another email from the same address is not blocked by this one's count.
    const other = await makePerson(ctx.db, org.id);
    expect((await dash().post('/session', { email: other.email, password: PASSWORD })).status).toBe(200);
  });

  it('refuses a sign-in from another origin, or without one, before looking at the password', async () => {
    const org = await makeOrganisation(ctx.db);
    const person = await makePerson(ctx.db, org.id);
    const foreign = await dashboardOf(ctx.app, 'https://evil.example').post('/session', {
      email: person.email,
      password: PASSWORD,
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({
      ...error('Forbidden'),
      hint:
        'This dashboard answers at http://localhost (PUBLIC_URL), and the page was opened at https://evil.example. ' +
        'Open http://localhost/dashboard, or set PUBLIC_URL to the address you use and restart the server.',
    });
    expect(foreign.headers['set-cookie']).toBeUndefined();
    const sessions = await ctx.db.selectFrom('sessions').select('id').where('person_id', '=', person.id).execute();
    expect(sessions).toEqual([]);
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/dashboard, without Secure on http', async () => {
    const org = await makeOrganisation(ctx.db);
    const person = await makePerson(ctx.db, org.id);
    const res = await dash().post('/session', { email: person.email, password: PASSWORD });
    expect(res.status).toBe(200);
    const cookie = sessionCookieOf(res);
    expect(cookie).toMatchObject({ name: 'spa_session', httpOnly: true, sameSite: 'lax', path: '/dashboard' });
    expect(cookie.secure).toBeFalsy();
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The table keeps a hash of the token, never the token.
    const stored = await ctx.db
      .selectFrom('sessions')
      .select('token_hash')
      .where('person_id', '=', person.id)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(cookie.value);
  });
});

describe('the session cookie when PUBLIC_URL is https', () => {
  const ctx = setup({ publicUrl: 'https://dash.example.com' });

  it('is Secure, and state-changing requests must come from that origin', async () => {
    const org = await makeOrganisation(ctx.db);
    const person = await makePerson(ctx.db, org.id);
    const refused = await dashboardOf(ctx.app, TEST_PUBLIC_URL).post('/session', {
      email: person.email,
      password: PASSWORD,
    });
    expect(refused.status).toBe(403);
    const res = await dashboardOf(ctx.app, 'https://dash.example.com').post('/session', {
      email: person.email,
      password: PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(sessionCookieOf(res)).toMatchObject({ httpOnly: true, sameSite: 'lax', path: '/dashboard', secure: true });
  });
});

describe('throttling per address', () => {
  const ctx = setup();

  it('answers 429 after 50 failures from one address, whatever the email', async () => {
    const dash = dashboardOf(ctx.app);
    for (let i = 0; i < 50; i++)
      expect(
        (await dash.post('/session', { email: `guess-${i}@example.com`, password: 'wrong password' })).status,
      ).toBe(401);
    const org = await makeOrganisation(ctx.db);
    const person = await makePerson(ctx.db, org.id);
    const blocked = await dash.post('/session', { email: person.email, password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });
});

// The embedded database belongs to one server process, whose count lives in its memory.
if (testDbKind !== 'postgres')
  console.warn(
    'the shared sign-in throttle needs two apps on one PostgreSQL database (DATABASE_URL); skipped on PGlite',
  );

describe.skipIf(testDbKind !== 'postgres')('throttling shared by two app instances on one database', () => {
  const ctx = setup();

  it('counts the failures of both toward one limit', async () => {
    const second = await connect({
      databaseUrl: withDatabase(process.env.DATABASE_URL!, ctx.handle.name!),
      poolSize: 2,
    });
    try {
      const other = createApp({
        db: second.db,
        pool: second.pool,
        clock: ctx.clock,
        vault: new KeyVault(Buffer.alloc(32)),
        config: { rateLimitEnforced: false, publicUrl: TEST_PUBLIC_URL },
        logger: pino({ level: 'silent' }),
      });
      const org = await makeOrganisation(ctx.db);
      const person = await makePerson(ctx.db, org.id);
      const apps = [dashboardOf(ctx.app), dashboardOf(other)];
      for (let i = 0; i < 5; i++)
        expect((await apps[i % 2]!.post('/session', { email: person.email, password: 'wrong password' })).status).toBe(
          401,
        );
      for (const dash of apps)
        expect((await dash.post('/session', { email: person.email, password: PASSWORD })).status).toBe(429);
    } finally {
      await second.close();
    }
  });
});
