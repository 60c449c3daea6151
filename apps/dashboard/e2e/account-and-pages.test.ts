import { SCOPES } from '@spa/contract';
import { createPartnerClient } from '@spa/sdk';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, openPage, shootFailure, type WatchedPage } from './support/browser.js';
import { inviteByCli, nav, PASSWORD, signedInPerson, signIn } from './support/people.js';
import { startReceiver } from './support/receiver.js';
import { startWorld, type World } from './support/world.js';

const ORG = 'maisons-lumiere';
const VENUE = 'spa-lumiere-paris';
const ADMIN = 'pages.admin@maisons-lumiere.example';
const NEW_PASSWORD = 'a new and longer passphrase';

/** The pages added for a partner admin's second look: account, people's access, an endpoint's page, bookings. */
describe('the account, people, endpoint and booking pages', () => {
  let world: World;
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let admin: WatchedPage;
  let other: WatchedPage;
  let bookingId: string;

  beforeAll(async () => {
    [world, browser, receiver] = await Promise.all([startWorld(), launchBrowser(), startReceiver()]);
    admin = await openPage(browser, world.base);
    other = await openPage(browser, world.base);
    await signedInPerson(admin, world, ADMIN, ['--org', ORG, '--role', 'admin']);
    await other.page.goto('/dashboard/sign-in');
    await signIn(other, ADMIN);
    const key = /sk_live_\w+/.exec(await world.spa('keys', 'create', '--org', ORG, '--scopes', SCOPES.join(',')))![0];
    const client = createPartnerClient({ baseUrl: world.base, apiKey: key });
    const treatments = await client.listTreatments(VENUE);
    if (!treatments.ok) throw treatments.error;
    const variant = treatments.data.flatMap((treatment) => treatment.variants)[0]!;
    const from = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const availability = await client.getVariantAvailability(VENUE, variant.id, { from, to: from });
    if (!availability.ok) throw availability.error;
    const days = 'days' in availability.data ? availability.data.days : [availability.data];
    const created = await client.createBooking(VENUE, {
      variant_id: variant.id,
      start_at: days.flatMap((day) => day.slots)[0]!.start_at,
      guest: { first_name: 'Marie', last_name: 'Curie', email: 'marie.curie@example.com', language: 'fr' },
      external_reference: 'hotel.ROOM-7',
      notes: 'Prefers a quiet room',
      price_paid: variant.price,
    });
    if (!created.ok) throw created.error;
    bookingId = created.data.id;
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    await shootFailure(admin, `pages-admin-${task.name}`);
    await shootFailure(other, `pages-other-${task.name}`);
  });
  afterAll(async () => {
    await admin?.close();
    await other?.close();
    await browser?.close();
    await receiver?.close();
    await world?.close();
  });

  it('changes the password: the other browser is signed out and told why', async () => {
    await nav(admin, 'Account').click();
    await admin.page.getByRole('heading', { name: 'Your sessions' }).waitFor();
    await expect.poll(() => admin.page.getByRole('row').count()).toBeGreaterThanOrEqual(3);
    await checkPage(admin, 'account');
    const form = admin.page.getByRole('form', { name: 'Change your password' });
    await form.getByLabel('Current password').fill(PASSWORD);
    await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await form.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    await admin.page.getByTestId('toast').getByText('Password changed. 1 other session was signed out.').waitFor();
    await other.page.goto('/dashboard/bookings');
    await other.page.getByText('Your password was changed, so this session ended.').waitFor();
  });

  it("changes a person's access and lists, then revokes, a pending invitation", async () => {
    await inviteByCli(world, ['--org', ORG, '--email', 'later@maisons-lumiere.example', '--role', 'admin']);
    const deskUrl = await inviteByCli(world, [
      '--org',
      ORG,
      '--email',
      'moving.desk@maisons-lumiere.example',
      '--role',
      'desk',
      '--venue',
      VENUE,
    ]);
    await nav(admin, 'People').click();
    const pending = admin.page.getByRole('region', { name: 'Pending invitations' });
    await pending.getByRole('cell', { name: 'later@maisons-lumiere.example', exact: true }).waitFor();
    await checkPage(admin, 'people-invitations');
    await pending.getByRole('button', { name: 'Revoke the invitation of later@maisons-lumiere.example' }).click();
    await admin.page
      .getByTestId('toast')
      .getByText(/invitation of later@maisons-lumiere\.example is revoked/)
      .waitFor();
    await expect
      .poll(() => pending.getByRole('cell', { name: 'later@maisons-lumiere.example', exact: true }).count())
      .toBe(0);
    // A person accepts; the admin makes them an admin.
    const person = await openPage(browser, world.base);
    try {
      await person.page.goto(deskUrl);
      await person.page.getByLabel('New password').fill(PASSWORD);
      await person.page.getByLabel('Repeat the password').fill(PASSWORD);
      await person.page.getByRole('button', { name: 'Set password' }).click();
      await person.page.getByText('Your password is set').waitFor();
    } finally {
      await person.close();
    }
    await admin.page.reload();
    await admin.page.getByRole('button', { name: 'Change the access of moving.desk@maisons-lumiere.example' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Access of moving.desk@maisons-lumiere.example' });
    await dialog.getByLabel('Role').selectOption('admin');
    await dialog.getByRole('button', { name: 'Save access' }).click();
    await admin.page.getByTestId('toast').getByText('moving.desk@maisons-lumiere.example is now admin.').waitFor();
  });

  it("shows an endpoint's own page: 7 days of deliveries, its settings, disable and enable", async () => {
    await nav(admin, 'Webhooks').click();
    await admin.page.getByLabel('URL', { exact: true }).fill(receiver.url);
    await admin.page.getByRole('button', { name: 'Add endpoint' }).click();
    await admin.page.getByRole('link', { name: `Endpoint ${receiver.url}` }).click();
    await admin.page.getByRole('heading', { name: 'Last 7 days' }).waitFor();
    await checkPage(admin, 'webhook-endpoint');
    await admin.page.getByRole('button', { name: 'Disable' }).click();
    await admin.page.getByTestId('toast').getByText(`${receiver.url} is disabled: it receives nothing.`).waitFor();
    await admin.page.getByRole('button', { name: 'Enable' }).click();
    await admin.page.getByTestId('toast').getByText(`${receiver.url} receives events again.`).waitFor();
  });

  it('removes an endpoint from its own page after a confirmation that says what removal does, Cancel focused', async () => {
    const removed = `${receiver.url}/to-remove`;
    await nav(admin, 'Webhooks').click();
    await admin.page.getByLabel('URL', { exact: true }).fill(removed);
    await admin.page.getByRole('button', { name: 'Add endpoint' }).click();
    await admin.page.getByRole('link', { name: `Endpoint ${removed}` }).click();
    await admin.page.getByRole('heading', { name: 'Last 7 days' }).waitFor();
    await admin.page.getByRole('button', { name: 'Remove', exact: true }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Remove this endpoint?' });
    await dialog
      .getByText(`${removed} gets no more events, and its pending deliveries, one being sent included, are not sent`, {
        exact: false,
      })
      .waitFor();
    // Enter on a dialog opened by mistake cancels: the focus is on Cancel.
    await expect.poll(() => admin.page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await admin.page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await admin.page.getByRole('heading', { name: 'Last 7 days' }).waitFor();
    await admin.page.getByRole('button', { name: 'Remove', exact: true }).click();
    await dialog.getByRole('button', { name: 'Remove endpoint' }).click();
    await admin.page.getByTestId('toast').getByText(`${removed} is removed: it gets no more events.`).waitFor();
    await admin.page.waitForURL(/\/dashboard\/webhooks$/);
    await admin.page.getByRole('link', { name: `Endpoint ${receiver.url}`, exact: true }).waitFor();
    expect(await admin.page.getByRole('link', { name: `Endpoint ${removed}` }).count()).toBe(0);
    // The server's removal: the endpoint is gone from its list.
    const list = await admin.page.request.get(new URL('/dashboard/api/webhook-endpoints', world.base).toString());
    expect(JSON.stringify(await list.json())).not.toContain(removed);
  });

  it('exports the bookings as CSV, and cancels one with its fee shown before confirming', async () => {
    await nav(admin, 'Bookings').click();
    const link = admin.page.getByRole('link', { name: 'Export these bookings as CSV' });
    const csv = await admin.page.request.get(new URL((await link.getAttribute('href'))!, world.base).toString());
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toContain('text/csv');
    expect(await csv.text()).toContain('Curie');
    await admin.page.goto(`/dashboard/bookings/${bookingId}`);
    await admin.page.getByText('hotel.ROOM-7').waitFor();
    await admin.page.getByText('Prefers a quiet room').waitFor();
    await admin.page.getByText('French').first().waitFor();
    await checkPage(admin, 'booking-cancel');
    await admin.page.getByRole('button', { name: /^Cancel booking #\d+$/ }).click();
    const dialog = admin.page.getByRole('dialog', { name: /^Cancel booking #\d+\?$/ });
    await dialog.getByText(/^Fee: /).waitFor();
    await dialog.getByLabel('Reason').fill('Guest changed plans');
    await dialog.getByRole('button', { name: /^Cancel for / }).click();
    await admin.page
      .getByTestId('toast')
      .getByText(/^Booking #\d+ cancelled; fee /)
      .waitFor();
    await admin.page.getByText('cancelled', { exact: true }).first().waitFor();
  });
});
