import { createPartnerClient } from '@spa/sdk';
import type { Browser, Locator } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, openPage, shootFailure, type WatchedPage } from './support/browser.js';
import { acceptInvitation, inviteByCli, nav, PASSWORD, signedInPerson, signIn } from './support/people.js';
import { startReceiver } from './support/receiver.js';
import { until } from './support/until.js';
import { startWorld, type World } from './support/world.js';

/**
 * Signing in counts as a recent password confirmation for 5 minutes, so the dashboard asks for the password again
 * only when that has passed: either the dialog comes up and is answered, or `done` shows at once.
 */
async function confirmPasswordIfAsked(watched: WatchedPage, done: Locator): Promise<void> {
  const dialog = watched.page.getByRole('dialog', { name: 'Confirm your password' });
  await done.or(dialog).first().waitFor();
  if (await dialog.isVisible()) {
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
  }
  await done.waitFor();
}

const ORG = 'maisons-lumiere';
const VENUE = 'spa-lumiere-paris';
const ADMIN = 'ops@maisons-lumiere.example';
const DESK = 'desk.paris@maisons-lumiere.example';

/**
 * The whole day of an organisation, in the order the issue tells it: each step leans on the one before, so they
 * share one server, one receiver and the two people's browser contexts.
 */
describe('the whole day of an organisation in the dashboard', () => {
  let world: World;
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let admin: WatchedPage;
  let desk: WatchedPage;
  let key: string;
  let secret: string;
  let booking: { id: string; booking_number: number };

  beforeAll(async () => {
    [world, browser, receiver] = await Promise.all([startWorld(), launchBrowser(), startReceiver()]);
    admin = await openPage(browser, world.base);
    desk = await openPage(browser, world.base);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    await shootFailure(admin, `day-admin-${task.name}`);
    await shootFailure(desk, `day-desk-${task.name}`);
  });
  afterAll(async () => {
    await admin?.close();
    await desk?.close();
    await browser?.close();
    await receiver?.close();
    await world?.close();
  });

  it('takes the invitation link printed by the CLI to a chosen password and a signed-in overview', async () => {
    const url = await inviteByCli(world, ['--org', ORG, '--email', ADMIN, '--role', 'admin']);
    await admin.page.goto(url);
    await admin.page.getByLabel('New password').waitFor();
    await checkPage(admin, 'accept-invitation');
    await acceptInvitation(admin, url);
    await expect.poll(() => admin.page.getByLabel('Email').inputValue()).toBe(ADMIN);
    await checkPage(admin, 'sign-in');
    await signIn(admin, ADMIN);
    await admin.page.getByRole('heading', { name: 'Overview' }).waitFor();
    await admin.page.getByRole('heading', { name: 'Spa Lumière Paris' }).waitFor();
    await admin.page.getByText(/All \d+ endpoints are delivering|No endpoints yet/).waitFor();
    await checkPage(admin, 'overview');
  });

  it('reveals the API key after the password is confirmed', async () => {
    await nav(admin, 'API key').click();
    await admin.page.getByText('Key id').waitFor();
    await checkPage(admin, 'api-key');
    await admin.page.getByRole('button', { name: 'Reveal key' }).click();
    await confirmPasswordIfAsked(admin, admin.page.getByTestId('secret'));
    key = (await admin.page.getByTestId('secret').innerText()).trim();
    expect(key).toMatch(/^sk_live_/);
    await checkPage(admin, 'api-key-revealed');
  });

  it('sees a booking made with the SDK and that key in the bookings list and on its own page', async () => {
    const client = createPartnerClient({ baseUrl: world.base, apiKey: key });
    const treatments = await client.listTreatments(VENUE);
    if (!treatments.ok) throw treatments.error;
    const variant = treatments.data.flatMap((treatment) => treatment.variants)[0]!;
    // Two UTC dates ahead: after the venue's own today at any hour (Paris is up to two hours ahead of UTC, so
    // tomorrow in UTC is today there from 22:00 or 23:00 UTC), since the desk lists confirmed bookings up to today.
    const from = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const availability = await client.getVariantAvailability(VENUE, variant.id, { from, to });
    if (!availability.ok) throw availability.error;
    const days = 'days' in availability.data ? availability.data.days : [availability.data];
    const slot = days.flatMap((day) => day.slots)[0]!;
    const created = await client.createBooking(VENUE, {
      variant_id: variant.id,
      start_at: slot.start_at,
      guest: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada.lovelace@example.com' },
      external_reference: 'hotel.ROOM-101',
      external_id: 'e2e-day-1',
      price_paid: variant.price,
    });
    if (!created.ok) throw created.error;
    booking = created.data;

    await nav(admin, 'Bookings').click();
    const link = admin.page.getByRole('link', { name: `#${booking.booking_number}` });
    await link.waitFor();
    await expect.poll(() => admin.page.getByRole('row', { name: /Ada Lovelace/ }).count()).toBe(1);
    // On a phone the rows stack into cards and are still a table's rows, each cell named by its column.
    await admin.page.setViewportSize({ width: 375, height: 812 });
    const row = admin.page.getByRole('row', { name: /Ada Lovelace/ });
    expect(await row.count()).toBe(1);
    expect(await row.getByRole('cell').count()).toBe(7);
    expect(await admin.page.getByRole('columnheader', { name: 'Customer' }).count()).toBe(1);
    await admin.page.setViewportSize({ width: 1280, height: 800 });
    await checkPage(admin, 'bookings');
    await admin.page.getByLabel('Search').fill('lovelace');
    await admin.page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => admin.page.url()).toContain('q=lovelace');
    await link.click();
    await admin.page.getByRole('heading', { name: `Booking #${booking.booking_number}` }).waitFor();
    await admin.page.getByText('Ada Lovelace', { exact: false }).first().waitFor();
    await admin.page.getByText('booking.created').first().waitFor();
    await checkPage(admin, 'booking');
  });

  it('adds a webhook endpoint to a local receiver and shows its secret once', async () => {
    await nav(admin, 'Webhooks').click();
    await admin.page.getByLabel('URL').fill(receiver.url);
    await admin.page.getByRole('button', { name: 'Add endpoint' }).click();
    secret = (await admin.page.getByTestId('secret').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await admin.page.getByRole('listitem').filter({ hasText: receiver.url }).waitFor();
    await checkPage(admin, 'webhooks');
  });

  it("lets a desk person record a therapist's acceptance, and the receiver verifies booking.confirmed", async () => {
    await signedInPerson(desk, world, DESK, ['--org', ORG, '--role', 'desk', '--venue', VENUE]);
    await nav(desk, 'Venue desk').click();
    const card = desk.page.getByRole('listitem').filter({ hasText: `#${booking.booking_number}` });
    const therapist = card.getByLabel(`Therapist who accepted #${booking.booking_number}`);
    await therapist.waitFor();
    await checkPage(desk, 'desk');
    await therapist.selectOption({ index: 1 });
    await card.getByRole('button', { name: 'Record acceptance' }).click();
    await card.waitFor({ state: 'detached' });
    await desk.page.goto(`/dashboard/bookings/${booking.id}`);
    await desk.page.getByText('confirmed', { exact: true }).first().waitFor();

    const delivery = await receiver.waitFor((d) => d.body.includes('"booking.confirmed"'));
    const event = new Webhook(secret).verify(delivery.body, delivery.headers) as {
      type: string;
      data: { booking: { id: string; status: string } };
    };
    expect([event.type, event.data.booking.id, event.data.booking.status]).toEqual([
      'booking.confirmed',
      booking.id,
      'confirmed',
    ]);
  });

  it('shows the delivery as succeeded with its attempt, and replays it to the receiver', async () => {
    await admin.page.goto('/dashboard/webhooks/deliveries?event_type=booking.confirmed');
    const card = admin.page.getByRole('listitem').filter({ hasText: 'booking.confirmed' }).first();
    await until('the delivery shows as succeeded', async () => {
      await admin.page.reload();
      await card.waitFor({ timeout: 5_000 });
      return (await card.getByText('succeeded', { exact: true }).count()) > 0;
    });
    await card.getByRole('cell', { name: 'HTTP 200' }).first().waitFor();
    await checkPage(admin, 'deliveries');

    const eventId = receiver.received.find((d) => d.body.includes('"booking.confirmed"'))!.headers['webhook-id'];
    await card.getByRole('button', { name: 'Replay to this endpoint' }).click();
    await admin.page.getByTestId('toast').getByText(`booking.confirmed queued again for ${receiver.url}.`).waitFor();
    await until('the replay reaches the receiver', async () =>
      Promise.resolve(receiver.received.filter((d) => d.headers['webhook-id'] === eventId).length >= 2),
    );
  });

  it('regenerates the key after a confirmation that says the old key stops at once; the old key gets 401', async () => {
    await nav(admin, 'API key').click();
    await admin.page.getByRole('button', { name: 'Regenerate key' }).click();
    const confirm = admin.page.getByRole('dialog', { name: 'Regenerate the API key?' });
    await confirm.getByText('stops working at once').waitFor();
    await confirm.getByRole('button', { name: 'Regenerate now' }).click();
    await confirmPasswordIfAsked(admin, admin.page.getByText('New API key'));
    const fresh = (await admin.page.getByTestId('secret').innerText()).trim();
    expect(fresh).toMatch(/^sk_live_/);
    expect(fresh).not.toBe(key);

    const old = await createPartnerClient({ baseUrl: world.base, apiKey: key }).listVenues();
    expect(!old.ok && old.error.status).toBe(401);
    const renewed = await createPartnerClient({ baseUrl: world.base, apiKey: fresh }).listVenues();
    expect(renewed.ok).toBe(true);
  });

  it('lists the people and an audit log with each step of the day', async () => {
    await nav(admin, 'People').click();
    await admin.page.getByRole('cell', { name: DESK, exact: true }).waitFor();
    await checkPage(admin, 'people');

    await nav(admin, 'Audit log').click();
    await admin.page.locator('[data-action]').first().waitFor();
    const actions = await admin.page
      .locator('[data-action]')
      .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-action')));
    for (const step of [
      'person.invited',
      'invitation.accepted',
      'session.signed_in',
      'key.revealed',
      'webhook_endpoint.created',
      'booking.acceptance_recorded',
      'webhook_delivery.replayed',
      'key.regenerated',
    ])
      expect(actions, step).toContain(step);
    await checkPage(admin, 'audit');
  });
});
