import { describe, expect, it } from 'vitest';
import { error } from '../support/api.js';
import { setup } from '../support/test-app.js';
import { auditRows, dashboardOf, makeDashboardOrganisation } from './dashboard-support.js';

describe('people of an organisation (users) and its audit log', () => {
  const ctx = setup({ now: '2026-11-22T08:00:00Z' });
  const dash = () => dashboardOf(ctx.app);

  it('lists the people of the organisation by email, with their venues, paginated', async () => {
    const { org, venue, admin, desk } = await makeDashboardOrganisation(ctx.db);
    await makeDashboardOrganisation(ctx.db); // another organisation's people are not listed
    const session = await dash().signIn(admin.email);
    const res = await dash().get('/users?page_size=1', session);
    expect(res.status).toBe(200);
    const sorted = [admin, desk].sort((a, b) => a.email.localeCompare(b.email));
    expect(res.body.pagination).toEqual({ page: 1, page_size: 1, total_items: 2, total_pages: 2 });
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].email).toBe(sorted[0]!.email);
    const all = await dash().get('/users', session);
    const byEmail = Object.fromEntries(all.body.data.map((u: { email: string }) => [u.email, u]));
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
    const taken = await dash().post('/users', { email: desk.email.toUpperCase(), role: 'admin' }, session);
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual(error('A person with this email already exists'));
    const foreignVenue = await dash().post(
      '/users',
      { email: 'desk@example.com', role: 'desk', venues: [other.venue.id] },
      session,
    );
    expect(foreignVenue.status).toBe(404);
    expect(foreignVenue.body).toEqual(error('Venue not found'));
    const noVenue = await dash().post('/users', { email: 'desk@example.com', role: 'desk' }, session);
    expect(noVenue.status).toBe(400);
    expect(noVenue.body.error).toBe('venues must list at least one venue for desk');
  });

  it('replaces a pending invitation of the same email, and lets none work after 72 hours', async () => {
    const { admin } = await makeDashboardOrganisation(ctx.db);
    const session = await dash().signIn(admin.email);
    const first = await dash().post('/users', { email: 'late@example.com', role: 'admin' }, session);
    const second = await dash().post('/users', { email: 'late@example.com', role: 'admin' }, session);
    const token = (res: typeof first) => (res.body.data.url as string).split('/').pop()!;
    expect((await dash().get(`/invitations/${token(first)}`)).status).toBe(404);
    expect((await dash().get(`/invitations/${token(second)}`)).status).toBe(200);
    ctx.clock.set('2026-11-25T08:00:00Z');
    const expired = await dash().post(`/invitations/${token(second)}/accept`, { password: 'a long enough password' });
    expect(expired.status).toBe(404);
    expect(expired.body).toEqual(error('Invitation not found'));
    ctx.clock.set('2026-11-22T08:00:00Z');
  });

  it('keeps an admin from removing themself (409)', async () => {
    const { admin } = await makeDashboardOrganisation(ctx.db);
    const session = await dash().signIn(admin.email);
    const res = await dash().delete(`/users/${admin.id}`, session);
    expect(res.status).toBe(409);
    expect(res.body).toEqual(error('You cannot remove yourself'));
  });

  it('refuses people and the audit log to desk (403)', async () => {
    const { desk, admin } = await makeDashboardOrganisation(ctx.db);
    const session = await dash().signIn(desk.email);
    for (const res of [
      await dash().get('/users', session),
      await dash().post('/users', { email: 'x@example.com', role: 'admin' }, session),
      await dash().post('/users', { not: 'even valid' }, session),
      await dash().delete(`/users/${admin.id}`, session),
      await dash().get('/audit-events', session),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(error('Forbidden'));
    }
  });

  it('lists the audit log newest first, paginated, with who, what, target, address and user agent', async () => {
    const { org, admin, desk } = await makeDashboardOrganisation(ctx.db);
    ctx.clock.set('2026-11-22T09:00:00Z');
    const session = await dash().signIn(admin.email);
    ctx.clock.set('2026-11-22T09:01:00Z');
    await dash().delete(`/users/${desk.id}`, session).set('User-Agent', 'audit-test/1.0').expect(204);
    const res = await dash().get('/audit-events?page_size=1', session);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, page_size: 1, total_items: 2, total_pages: 2 });
    expect(res.body.data[0]).toEqual({
      id: expect.any(String),
      actor: { type: 'person', id: admin.id, email: admin.email },
      action: 'person.removed',
      target: { type: 'person', id: desk.id },
      ip: expect.stringMatching(/127\.0\.0\.1|::1/),
      user_agent: 'audit-test/1.0',
      created_at: '2026-11-22T09:01:00Z',
    });
    const second = await dash().get('/audit-events?page=2&page_size=1', session);
    expect(second.body.data[0]).toMatchObject({ action: 'session.signed_in', target: null });
    expect((await auditRows(ctx.db, org.id)).filter((r) => r.action === 'person.removed')).toHaveLength(1);
    ctx.clock.set('2026-11-22T08:00:00Z');
  });
});
