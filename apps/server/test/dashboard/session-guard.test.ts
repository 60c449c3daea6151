import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { setActor, type DashboardActor } from '../../src/dashboard/dashboard-actor.js';
import { requireRecentConfirmation } from '../../src/dashboard/guards.js';
import { errorMapper } from '../../src/http/error-mapper.js';
import { fixedClock } from '../support/fixed-clock.js';
import { error } from '../support/api.js';
import { setup } from '../support/test-app.js';
import { expectStatus } from '../support/typed-api.js';
import { auditRows, dashboardOf, makeDashboardOrganisation, PASSWORD, type Session } from './dashboard-support.js';

describe('dashboard session guard', () => {
  const ctx = setup({ now: '2026-11-22T08:00:00Z' });
  /** Untyped dashboard requests: sign-in (it reads the Set-Cookie) and the CSRF and Origin refusals. */
  const dash = () => dashboardOf(ctx.app);
  /** The dashboard API's typed client, as a signed-in person (or nobody) calls it. */
  const as = (session?: Session) => ctx.dashboard(session);
  /** Who-am-I's answer, asserted 200. */
  const me = async (session: Session) => {
    const res = await as(session).session.me();
    expectStatus(res, 200);
    return res.body.data;
  };

  it('refuses a state-changing request without the CSRF token, with a wrong one, or from another origin, and changes nothing', async () => {
    const { org, admin, desk } = await makeDashboardOrganisation(ctx.db);
    const session = await dash().signIn(admin.email);
    const before = await auditRows(ctx.db, org.id);
    // Raw: a missing or wrong CSRF token and a foreign Origin, which the dashboard's client always sends right.
    const attempts = [
      dash().delete(`/users/${desk.id}`, { ...session, csrf: '' }),
      dash().delete(`/users/${desk.id}`, { ...session, csrf: 'not-the-token' }),
      dashboardOf(ctx.app, 'https://evil.example').delete(`/users/${desk.id}`, session),
      dashboardOf(ctx.app, 'http://localhost:8080').delete(`/users/${desk.id}`, session),
      dash().delete('/session', { ...session, csrf: '' }),
      dash().post('/users', { email: 'x@example.com', role: 'admin' }, { ...session, csrf: '' }),
    ];
    const foreign = new Set([2, 3]);
    for (const [i, res] of (await Promise.all(attempts)).entries()) {
      expect(res.status).toBe(403);
      // A refused Origin says what to do: open the dashboard at PUBLIC_URL's address, or set PUBLIC_URL.
      expect(res.body).toEqual(
        foreign.has(i)
          ? { ...error('Forbidden'), hint: expect.stringContaining('This dashboard answers at http://localhost') }
          : error('Forbidden'),
      );
    }
    const people = await ctx.db.selectFrom('people').select('id').where('id', '=', desk.id).execute();
    expect(people).toHaveLength(1);
    expect(await auditRows(ctx.db, org.id)).toEqual(before);
    expect((await as(session).session.me()).status).toBe(200);
    // With both, the same request goes through.
    expect((await as(session).users.remove({ params: { id: desk.id } })).status).toBe(204);
  });

  it('answers 401 without a cookie, with an unknown token, after 30 idle minutes and after 12 hours', async () => {
    const { admin } = await makeDashboardOrganisation(ctx.db);
    expect((await as().session.me()).body).toEqual(error('Not signed in'));
    const unknown = await as({ token: 'x'.repeat(43), csrf: '' }).session.me();
    expect(unknown.status).toBe(401);
    // The stale cookie is cleared.
    expect(String(unknown.headers.get('set-cookie'))).toContain('spa_session=;');

    ctx.clock.set('2026-11-22T08:00:00Z');
    const idle = await dash().signIn(admin.email);
    ctx.clock.set('2026-11-22T08:29:00Z');
    expect((await as(idle).session.me()).status).toBe(200);
    // Used at 08:29: idle until 08:59.
    ctx.clock.set('2026-11-22T08:58:59Z');
    expect((await as(idle).session.me()).status).toBe(200);
    ctx.clock.set('2026-11-22T09:29:00Z');
    expect((await as(idle).session.me()).status).toBe(401);

    ctx.clock.set('2026-11-22T10:00:00Z');
    const long = await dash().signIn(admin.email);
    // Signing in drops the person's expired sessions: only the new one is left.
    const rows = await ctx.db
      .selectFrom('sessions')
      .innerJoin('people', 'people.id', 'sessions.person_id')
      .select('sessions.id')
      .where('people.email', '=', admin.email)
      .execute();
    expect(rows).toHaveLength(1);
    // Used every 20 minutes, it still ends 12 hours after sign-in.
    let at = Temporal.Instant.from('2026-11-22T10:00:00Z');
    const end = Temporal.Instant.from('2026-11-22T22:00:00Z');
    while (Temporal.Instant.compare(at.add({ minutes: 20 }), end) < 0) {
      at = at.add({ minutes: 20 });
      ctx.clock.set(at.toString());
      expect((await as(long).session.me()).status).toBe(200);
    }
    expect((await me(long)).expires_at).toBe('2026-11-22T22:00:00Z');
    ctx.clock.set('2026-11-22T22:00:00Z');
    expect((await as(long).session.me()).status).toBe(401);
    ctx.clock.set('2026-11-22T08:00:00Z');
  });

  it('confirms the password for 5 minutes; a wrong one is 401 Invalid password and keeps the session', async () => {
    const { admin } = await makeDashboardOrganisation(ctx.db);
    ctx.clock.set('2026-11-22T08:00:00Z');
    const session = await dash().signIn(admin.email);
    ctx.clock.set('2026-11-22T08:06:00Z');
    expect((await me(session)).confirmed_until).toBeNull();
    const wrong = await as(session).session.confirm({ body: { password: 'not the password' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(error('Invalid password'));
    expect((await as(session).session.me()).status).toBe(200);
    const confirmed = await as(session).session.confirm({ body: { password: PASSWORD } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ data: { confirmed_until: '2026-11-22T08:11:00Z' } });
    expect((await me(session)).confirmed_until).toBe('2026-11-22T08:11:00Z');
    ctx.clock.set('2026-11-22T08:00:00Z');
  });

  it('ends every session of a removed person at once', async () => {
    const { admin, desk } = await makeDashboardOrganisation(ctx.db);
    const adminSession = await dash().signIn(admin.email);
    const deskSessions = [await dash().signIn(desk.email), await dash().signIn(desk.email)];
    expect((await as(adminSession).users.remove({ params: { id: desk.id } })).status).toBe(204);
    for (const s of deskSessions) expect((await as(s).session.me()).status).toBe(401);
    expect((await as().session.signIn({ body: { email: desk.email, password: PASSWORD } })).status).toBe(401);
  });
});

describe('requireRecentConfirmation', () => {
  const clock = fixedClock('2026-11-22T08:10:00Z');
  const app = (confirmedAt: string | null) =>
    express()
      .use((_req, res, next) => {
        setActor(res, { confirmedAt: confirmedAt && Temporal.Instant.from(confirmedAt) } as DashboardActor);
        next();
      })
      .post('/', requireRecentConfirmation(clock), (_req, res) => void res.status(204).end())
      .use(errorMapper);

  it('lets a confirmation of the last 5 minutes through and refuses an older one or none', async () => {
    expect((await request(app('2026-11-22T08:05:01Z')).post('/')).status).toBe(204);
    for (const at of ['2026-11-22T08:05:00Z', null]) {
      const res = await request(app(at)).post('/');
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('Recent sign-in required');
    }
  });
});
