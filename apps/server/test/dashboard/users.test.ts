import { describe, expect, it } from 'vitest';
import { error } from '../support/api.js';
import { setup } from '../support/test-app.js';
import { errorOf, expectStatus } from '../support/typed-api.js';
import { auditRows, dashboardOf, makeDashboardOrganisation, type Session } from './dashboard-support.js';

describe('people of an organisation (users) and its audit log', () => {
  const ctx = setup({ now: '2026-11-22T08:00:00Z' });
  /** Untyped dashboard requests: sign-in (it reads the Set-Cookie) and a body the contract refuses. */
  const dash = () => dashboardOf(ctx.app);
  /** The dashboard API's typed client, as a signed-in person (or nobody) calls it. */
  const as = (session?: Session) => ctx.dashboard(session);

  it('lists the people of the organisation by email, with their venues, paginated', async () => {
    const { org, venue, admin, desk } = await makeDashboardOrganisation(ctx.db);
    await makeDashboardOrganisation(ctx.db); // another organisation's people are not listed
    const session = await dash().signIn(admin.email);
    const res = await as(session).users.list({ query: { page_size: '1' } });
    expectStatus(res, 200);
    const sorted = [admin, desk].sort((a, b) => a.email.localeCompare(b.email));
    expect(res.body.pagination).toEqual({ page: 1, page_size: 1, total_items: 2, total_pages: 2 });
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]?.email).toBe(sorted[0]!.email);
    const all = await as(session).users.list();
    expectStatus(all, 200);
    const byEmail = Object.fromEntries(all.body.data.map((u) => [u.email, u]));
    expect(byEmail[desk.email]).toMatchObject({
      id: desk.id,
      role: 'desk',
      venues: [{ id: venue.id, slug: venue.slug, name: venue.name }],
      last_sign_in_at: null,
    });
    expect(byEmail[admin.email]).toMatchObject({ role: 'admin', venues: [], last_sign_in_at: '2026-11-22T08:00:00Z' });
    expect(org.id).toBeDefined();
  });

  it('refuses invitations it cannot keep: a taken email (409), an unknown venue (404), desk without venues (400)', async () => {
    const { admin, desk } = await makeDashboardOrganisation(ctx.db);
    const other = await makeDashboardOrganisation(ctx.db);
    const session = await dash().signIn(admin.email);
    const taken = await as(session).users.invite({ body: { email: desk.email.toUpperCase(), role: 'admin' } });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual(error('A person with this email already exists'));
    const foreignVenue = await as(session).users.invite({
      body: { email: 'desk@example.com', role: 'desk', venues: [other.venue.id] },
    });
    expect(foreignVenue.status).toBe(404);
    expect(foreignVenue.body).toEqual(error('Venue not found'));
    const noVenue = await as(session).users.invite({ body: { email: 'desk@example.com', role: 'desk' } });
    expect(noVenue.status).toBe(400);
    expect(errorOf(noVenue)).toBe('venues must list at least one venue for desk');
  });

  it('replaces a pending invitation of the same email, and lets none work after 72 hours', async () => {
    const { admin } = await makeDashboardOrganisation(ctx.db);
    const session = await dash().signIn(admin.email);
    const first = await as(session).users.invite({ body: { email: 'late@example.com', role: 'admin' } });
    const second = await as(session).users.invite({ body: { email: 'late@example.com', role: 'admin' } });
    const token = (res: typeof first) => {
      expectStatus(res, 201);
      return res.body.data.url.split('/').pop()!;
    };
    expect((await as().invitations.get({ params: { token: token(first) } })).status).toBe(404);
    expect((await as().invitations.get({ params: { token: token(second) } })).status).toBe(200);
    ctx.clock.set('2026-11-25T08:00:00Z');
    const expired = await as().invitations.accept({
      params: { token: token(second) },
      body: { password: 'a long enough password' },
    });
    expect(expired.status).toBe(404);
    expect(expired.body).toEqual(error('Invitation not found'));
    ctx.clock.set('2026-11-22T08:00:00Z');
  });

  it('keeps an admin from removing themself (409)', async () => {
    const { admin } = await makeDashboardOrganisation(ctx.db);
    const session = await dash().signIn(admin.email);
    const res = await as(session).users.remove({ params: { id: admin.id } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(error('You cannot remove yourself'));
  });

  it('refuses people and the audit log to desk (403)', async () => {
    const { desk, admin } = await makeDashboardOrganisation(ctx.db);
    const session = await dash().signIn(desk.email);
    for (const res of [
      await as(session).users.list(),
      await as(session).users.invite({ body: { email: 'x@example.com', role: 'admin' } }),
      await dash().post('/users', { not: 'even valid' }, session), // raw: a body the contract refuses
      await as(session).users.remove({ params: { id: admin.id } }),
      await as(session).auditEvents.list(),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(error('Forbidden'));
    }
  });

  it('lists the audit log newest first, paginated, with who, what, target (and its name), address and user agent', async () => {
    const { org, admin, desk } = await makeDashboardOrganisation(ctx.db);
    ctx.clock.set('2026-11-22T09:00:00Z');
    const session = await dash().signIn(admin.email);
    ctx.clock.set('2026-11-22T09:01:00Z');
    const removed = await as(session).users.remove({
      params: { id: desk.id },
      extraHeaders: { 'user-agent': 'audit-test/1.0' },
    });
    expectStatus(removed, 204);
    const res = await as(session).auditEvents.list({ query: { page_size: '1' } });
    expectStatus(res, 200);
    expect(res.body.pagination).toEqual({ page: 1, page_size: 1, total_items: 2, total_pages: 2 });
    expect(res.body.data[0]).toEqual({
      id: expect.any(String),
      actor: { type: 'person', id: admin.id, email: admin.email },
      action: 'person.removed',
      // Who was removed, by name as well: the row is gone, the log still says whom.
      target: { type: 'person', id: desk.id, label: desk.email },
      ip: expect.stringMatching(/127\.0\.0\.1|::1/),
      user_agent: 'audit-test/1.0',
      created_at: '2026-11-22T09:01:00Z',
    });
    const second = await as(session).auditEvents.list({ query: { page: '2', page_size: '1' } });
    expectStatus(second, 200);
    expect(second.body.data[0]).toMatchObject({ action: 'session.signed_in', target: null });
    expect((await auditRows(ctx.db, org.id)).filter((r) => r.action === 'person.removed')).toHaveLength(1);
    ctx.clock.set('2026-11-22T08:00:00Z');
  });
});
