import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { error } from '../support/api.js';
import { setup } from '../support/test-app.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { auditRows, dashboardOf, makeDashboardOrganisation, type Session } from './dashboard-support.js';
import { expireConfirmation, makeOrganisationResources } from './resources-support.js';

describe('webhook endpoints and deliveries from the dashboard', () => {
  const ctx = setup({ webhooks: { retrySchedule: [60], allowPrivateNetworks: true } });
  const dash = () => dashboardOf(ctx.app);
  let r: Receiver;
  beforeAll(async () => {
    r = await startReceiver();
  });
  afterAll(() => r.close());

  const actions = async (orgId: string) => (await auditRows(ctx.db, orgId)).map((row) => row.action);

  it('adds an endpoint (secret shown once), tests it through the delivery queue, lists both, removes it', async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const session = await dash().signIn(w.admin.email);
    const created = await dash().post(
      '/webhook-endpoints',
      { url: r.url, events: ['booking.confirmed'], venue_id: w.venue.id },
      session,
    );
    expect(created.status).toBe(201);
    const endpoint = created.body.data as { id: string; secret: string };
    expect(created.body.data).toMatchObject({
      url: r.url,
      events: ['booking.confirmed'],
      venue: { id: w.venue.id, slug: w.venue.slug, name: w.venue.name },
      state: 'active',
      enabled: true,
      recent_deliveries: { succeeded: 0, failed: 0, success_rate: null },
      secret: expect.stringMatching(/^whsec_/),
    });

    const tested = await dash().post(`/webhook-endpoints/${endpoint.id}/test`, undefined, session);
    expect(tested.status).toBe(200);
    expect(tested.body.data).toMatchObject({ succeeded: true, status_code: 200, error: null });
    const eventId = tested.body.data.event_id as string;
    expect(r.received.map((x) => x.id)).toEqual([eventId]);
    const [body] = r.verified(endpoint.secret);
    expect(body).toEqual({ type: 'webhook.test', timestamp: '2026-11-22T08:00:00Z', data: {} });

    const deliveries = await dash().get(`/webhook-deliveries?endpoint_id=${endpoint.id}`, session);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.data).toEqual([
      expect.objectContaining({
        event_id: eventId,
        event_type: 'webhook.test',
        booking_id: null,
        endpoint: { id: endpoint.id, url: r.url },
        status: 'succeeded',
        next_attempt_at: null,
        attempts: [expect.objectContaining({ attempt: 1, status_code: 200, error: null })],
      }),
    ]);
    const list = await dash().get('/webhook-endpoints', session);
    expect(list.body.data).toEqual([
      expect.objectContaining({ id: endpoint.id, recent_deliveries: { succeeded: 1, failed: 0, success_rate: 1 } }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');

    const removed = await dash().delete(`/webhook-endpoints/${endpoint.id}`, session);
    expect(removed.status).toBe(204);
    expect((await dash().get('/webhook-endpoints', session)).body.data).toEqual([]);
    expect(await actions(w.org.id)).toEqual(expect.arrayContaining(['webhook_endpoint.created']));
    const rows = (await auditRows(ctx.db, w.org.id)).filter((row) => row.action.startsWith('webhook_'));
    expect(rows.map((row) => [row.action, row.target_id, row.actor_person_id]).sort()).toEqual(
      [
        ['webhook_endpoint.created', endpoint.id, w.admin.id],
        ['webhook_endpoint.tested', endpoint.id, w.admin.id],
        ['webhook_endpoint.removed', endpoint.id, w.admin.id],
      ].sort(),
    );
    expect(JSON.stringify(rows)).not.toContain(endpoint.secret);
  });

  it('answers how a failing endpoint replied, and keeps the delivery pending for its retry', async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const session = await dash().signIn(w.admin.email);
    const endpoint = (await dash().post('/webhook-endpoints', { url: r.url }, session)).body.data;
    r.answer({ status: 500 });
    const tested = await dash().post(`/webhook-endpoints/${endpoint.id}/test`, undefined, session);
    expect(tested.body.data).toMatchObject({ succeeded: false, status_code: 500 });
    const [delivery] = (await dash().get('/webhook-deliveries?status=pending', session)).body.data;
    expect(delivery).toMatchObject({ event_id: tested.body.data.event_id, status: 'pending' });
    expect(delivery.next_attempt_at).toBe('2026-11-22T08:01:00Z');
  });

  it('refuses unsafe URLs (422), an eleventh endpoint (409) and a bad body (400)', async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const session = await dash().signIn(w.admin.email);
    const unsafe = await dash().post('/webhook-endpoints', { url: 'https://user:pw@example.com/x' }, session);
    expect([unsafe.status, unsafe.body.error]).toEqual([422, 'The URL must not carry a user name or password']);
    const bad = await dash().post('/webhook-endpoints', { url: r.url, events: ['booking.eaten'] }, session);
    expect(bad.status).toBe(400);
    for (let i = 0; i < 10; i++)
      expect((await dash().post('/webhook-endpoints', { url: `${r.url}/${i}` }, session)).status).toBe(201);
    const eleventh = await dash().post('/webhook-endpoints', { url: r.url }, session);
    expect([eleventh.status, eleventh.body]).toEqual([
      409,
      error('An organisation has at most 10 webhook endpoints; remove one first'),
    ]);
  });

  it('rotates a secret only after a recent confirmation; replays an event; one audit row each', async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const { endpoint, event } = await makeOrganisationResources(ctx.db, w.org.id, w.venue.id);
    const session = await dash().signIn(w.admin.email);
    await expireConfirmation(ctx.db, w.admin.id, ctx.clock.now());
    const refused = await dash().post(`/webhook-endpoints/${endpoint.id}/rotate-secret`, undefined, session);
    expect([refused.status, refused.body]).toEqual([403, error('Recent sign-in required')]);
    const fresh = await dash().signIn(w.admin.email);
    const rotated = await dash().post(`/webhook-endpoints/${endpoint.id}/rotate-secret`, undefined, fresh);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).toEqual({
      id: endpoint.id,
      secret: expect.stringMatching(/^whsec_/),
      previous_secret_expires_at: '2026-11-23T08:00:00Z',
    });
    const replayed = await dash().post(`/webhook-deliveries/${event.id}/replay`, undefined, fresh);
    expect([replayed.status, replayed.body]).toEqual([200, { data: { event_id: event.id, deliveries: 1 } }]);
    const missing = await dash().post(`/webhook-deliveries/${crypto.randomUUID()}/replay`, undefined, fresh);
    expect([missing.status, missing.body]).toEqual([404, error('Webhook event not found')]);
    const rows = (await auditRows(ctx.db, w.org.id)).filter((row) => !row.action.startsWith('session.'));
    expect(rows.map((row) => [row.action, row.target_type, row.target_id])).toEqual([
      ['webhook_delivery.replayed', 'webhook_event', event.id],
      ['webhook_endpoint.secret_rotated', 'webhook_endpoint', endpoint.id],
    ]);
    expect(JSON.stringify(rows)).not.toContain(rotated.body.data.secret);
  });

  it('refuses a desk person every webhook route with 403 Forbidden', async () => {
    const w = await makeDashboardOrganisation(ctx.db);
    const { endpoint, event } = await makeOrganisationResources(ctx.db, w.org.id, w.venue.id);
    const session: Session = await dash().signIn(w.desk.email);
    for (const res of [
      await dash().get('/webhook-endpoints', session),
      await dash().post('/webhook-endpoints', { url: r.url }, session),
      await dash().delete(`/webhook-endpoints/${endpoint.id}`, session),
      await dash().post(`/webhook-endpoints/${endpoint.id}/rotate-secret`, undefined, session),
      await dash().post(`/webhook-endpoints/${endpoint.id}/test`, undefined, session),
      await dash().get('/webhook-deliveries', session),
      await dash().post(`/webhook-deliveries/${event.id}/replay`, undefined, session),
    ])
      expect([res.status, res.body]).toEqual([403, error('Forbidden')]);
  });
});
