import { SCOPES } from '@spa/contract';
import { createPartnerClient } from '@spa/sdk';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, openPage, shootFailure, type WatchedPage } from './support/browser.js';
import { nav, PASSWORD, signedInPerson } from './support/people.js';
import { startReceiver } from './support/receiver.js';
import { until } from './support/until.js';
import { startWorld, type World } from './support/world.js';

const ORG = 'maisons-lumiere';
const VENUE = 'spa-lumiere-paris';
const ADMIN = 'first.day@maisons-lumiere.example';
const DESK = 'desk.first.day@maisons-lumiere.example';

/** What the dashboard's own page asks of its API (the JSON API and the desk's event stream). */
function apiCalls(watched: WatchedPage): string[] {
  const calls: string[] = [];
  watched.page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/dashboard/api/')) calls.push(`${request.method()} ${url.pathname}`);
  });
  return calls;
}

/**
 * The traps an outside walk found on a partner admin's and a venue desk's first day, each walked again in the
 * browser: the defect's own steps, and what must happen instead.
 */
describe("a partner admin's and a desk person's first day", () => {
  let world: World;
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let admin: WatchedPage;
  let desk: WatchedPage;
  let client: ReturnType<typeof createPartnerClient>;
  let slots: string[] = [];
  let variantId: string;
  let variantPrice: { amount: number; currency: string };
  let booked = 0;

  /** A booking through the partner API at the next free slot, two days ahead or later. */
  const book = async () => {
    for (;;) {
      const start = slots.shift();
      if (!start) throw new Error('no slot left');
      const created = await client.createBooking(VENUE, {
        variant_id: variantId,
        start_at: start,
        guest: { first_name: 'Guest', last_name: `Number ${++booked}`, email: `guest.${booked}@example.com` },
        price_paid: variantPrice,
      });
      if (created.ok) return created.data;
    }
  };

  beforeAll(async () => {
    [world, browser, receiver] = await Promise.all([startWorld(), launchBrowser(), startReceiver()]);
    const printed = await world.spa('keys', 'create', '--org', ORG, '--scopes', SCOPES.join(','));
    const key = /sk_live_\w+/.exec(printed)![0];
    client = createPartnerClient({ baseUrl: world.base, apiKey: key });
    const treatments = await client.listTreatments(VENUE);
    if (!treatments.ok) throw treatments.error;
    const variant = treatments.data.flatMap((treatment) => treatment.variants)[0]!;
    [variantId, variantPrice] = [variant.id, variant.price];
    const from = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);
    const availability = await client.getVariantAvailability(VENUE, variant.id, { from, to });
    if (!availability.ok) throw availability.error;
    const days = 'days' in availability.data ? availability.data.days : [availability.data];
    slots = days.flatMap((day) => day.slots.map((slot) => slot.start_at));
    admin = await openPage(browser, world.base);
    desk = await openPage(browser, world.base);
    await signedInPerson(admin, world, ADMIN, ['--org', ORG, '--role', 'admin']);
    await signedInPerson(desk, world, DESK, ['--org', ORG, '--role', 'desk', '--venue', VENUE]);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    await shootFailure(admin, `first-day-admin-${task.name}`);
    await shootFailure(desk, `first-day-desk-${task.name}`);
  });
  afterAll(async () => {
    await admin?.close();
    await desk?.close();
    await browser?.close();
    await receiver?.close();
    await world?.close();
  });

  it('focuses Cancel in a confirmation: Tab to Regenerate key, Enter, Enter leaves the key as it was', async () => {
    await nav(admin, 'API key').click();
    const keyId = admin.page.locator('dd code').first();
    await keyId.waitFor();
    const before = await keyId.innerText();
    await admin.page.getByRole('button', { name: 'Regenerate key' }).focus();
    await admin.page.keyboard.press('Enter');
    const dialog = admin.page.getByRole('dialog', { name: 'Regenerate the API key?' });
    await dialog.waitFor();
    expect(await admin.page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await admin.page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await admin.page.reload();
    await keyId.waitFor();
    expect(await keyId.innerText()).toBe(before);
  });

  it('asks for the password when the server says so, with the browser clock 10 minutes behind', async () => {
    await admin.context.clock.install({ time: new Date(Date.now() - 10 * 60_000) });
    await admin.page.reload();
    // The server's answer once the 5 minutes have passed: the page must react to it, not to its own clock.
    let refused = false;
    await admin.page.route('**/dashboard/api/key/reveal', async (route) => {
      if (refused) return route.fallback();
      refused = true;
      await route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Recent sign-in required', request_id: 'e2e-stale-confirmation' }),
      });
    });
    admin.expectConsoleError(/status of 403/);
    await admin.page.getByRole('button', { name: 'Reveal key' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Confirm your password' });
    await dialog.waitFor();
    expect(await admin.page.getByText('Recent sign-in required').count()).toBe(0);
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await admin.page.getByTestId('secret').waitFor();
    expect(await admin.page.getByTestId('secret').innerText()).toMatch(/^sk_live_/);
    await admin.page.unroute('**/dashboard/api/key/reveal');
  });

  it("on a phone, puts a new endpoint's secret on screen with the focus, and keeps the first beside the second", async () => {
    await admin.page.setViewportSize({ width: 375, height: 812 });
    await nav(admin, 'Webhooks').click();
    for (const path of ['/hooks/a', '/hooks/b']) {
      await admin.page.getByLabel('URL', { exact: true }).fill(receiver.url.replace('/hooks', path));
      await admin.page.getByRole('button', { name: 'Add endpoint' }).click();
      const secret = admin.page.getByRole('region', {
        name: `Signing secret of ${receiver.url.replace('/hooks', path)}`,
      });
      await secret.waitFor();
      await expect.poll(() => secret.evaluate((box) => box.contains(document.activeElement))).toBe(true);
      const box = (await secret.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(812);
    }
    expect(await admin.page.getByTestId('secret').count()).toBe(2);
    await admin.page.setViewportSize({ width: 1280, height: 800 });
  });

  it('replays one delivery to its own endpoint only, and says so once the card leaves the filtered list', async () => {
    const booking = await book();
    await receiver.waitFor((d) => d.path === '/hooks/a' && d.body.includes(booking.id));
    await receiver.waitFor((d) => d.path === '/hooks/b' && d.body.includes(booking.id));
    const endpoints = await admin.page.evaluate(async () => {
      const res = await fetch('/dashboard/api/webhook-endpoints');
      return ((await res.json()) as { data: { id: string; url: string }[] }).data;
    });
    const a = endpoints.find((e) => e.url.endsWith('/hooks/a'))!;
    await admin.page.goto(`/dashboard/webhooks/deliveries?endpoint_id=${a.id}&status=succeeded`);
    const card = admin.page.getByRole('listitem').filter({ hasText: 'booking.created' }).first();
    await card.getByRole('button', { name: 'Replay to this endpoint' }).click();
    await admin.page.getByTestId('toast').getByText(`booking.created queued again for ${a.url}.`).waitFor();
    await until('the replay reaches endpoint a', async () =>
      Promise.resolve(
        receiver.received.filter((d) => d.path === '/hooks/a' && d.body.includes(booking.id)).length === 2,
      ),
    );
    expect(receiver.received.filter((d) => d.path === '/hooks/b' && d.body.includes(booking.id))).toHaveLength(1);
  });

  it('shows the desk live, in at most 3 API calls with 14 bookings waiting, its count in the tab title', async () => {
    while (booked < 15) await book();
    const calls = apiCalls(desk);
    await nav(desk, 'Venue desk').click();
    const waiting = desk.page.getByRole('region', { name: 'Waiting for a therapist' }).getByRole('listitem');
    await expect.poll(() => waiting.count()).toBeGreaterThanOrEqual(14);
    const count = await waiting.count();
    await expect.poll(() => desk.page.title()).toBe(`(${count}) Venue desk`);
    expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3);
    await checkPage(desk, 'desk-live');
    // A booking made through the API appears by itself: no reload, no click.
    const fresh = await book();
    await desk.page.locator(`[data-booking="${fresh.booking_number}"]`).first().waitFor({ timeout: 20_000 });
    await expect.poll(() => desk.page.title()).toBe(`(${count + 1}) Venue desk`);
  });

  it('records an acceptance with a toast, and offers complete and no-show only once the booking has started', async () => {
    const card = desk.page.getByRole('region', { name: 'Waiting for a therapist' }).getByRole('listitem').first();
    const number = (await card.getAttribute('data-booking'))!;
    // Read before the acceptance: the confirmed booking then leaves the list (it starts days from now).
    const page = (await card.getByRole('link', { name: `#${number}` }).getAttribute('href'))!;
    await card.getByLabel(`Therapist who accepted #${number}`).selectOption({ index: 1 });
    await card.getByRole('button', { name: 'Record acceptance' }).click();
    await desk.page
      .getByTestId('toast')
      .getByText(new RegExp(`Booking #${number} confirmed: .+ accepted it\\.`))
      .waitFor();
    await desk.page.goto(page);
    await desk.page.getByText('Can be closed once it has started.').waitFor();
    expect(await desk.page.getByRole('button', { name: `Mark #${number} completed` }).count()).toBe(0);
  });

  it('shows the pages in French when chosen: lang set, words, dates and money in French', async () => {
    await desk.page.getByLabel('Language').first().selectOption('fr');
    await expect.poll(() => desk.page.evaluate(() => document.documentElement.lang)).toBe('fr');
    const rubriques = desk.page.getByRole('navigation', { name: 'Rubriques' });
    await rubriques.getByRole('link', { name: 'Accueil du spa', exact: true }).click();
    await desk.page.getByRole('heading', { name: 'En attente d’un praticien' }).waitFor();
    await desk.page.getByText('en attente', { exact: true }).first().waitFor();
    await checkPage(desk, 'desk-fr');
    await rubriques.getByRole('link', { name: 'Vue d’ensemble', exact: true }).click();
    await desk.page.getByRole('heading', { name: 'Vue d’ensemble' }).waitFor();
    await checkPage(desk, 'overview-fr');
    await desk.page.getByLabel('Langue').first().selectOption('en');
  });

  it('sends the app compressed, within 160 kB of JavaScript on the wire, and keeps its source map', async () => {
    const fresh = await openPage(browser, world.base);
    try {
      const scripts: { url: string; encoding: string | undefined; bytes: number }[] = [];
      fresh.page.on('requestfinished', (request) => {
        if (request.resourceType() !== 'script') return;
        void Promise.all([request.sizes(), request.response()]).then(([sizes, response]) =>
          scripts.push({
            url: request.url(),
            encoding: response?.headers()['content-encoding'],
            bytes: sizes.responseBodySize,
          }),
        );
      });
      await fresh.page.goto('/dashboard/sign-in');
      await fresh.page.getByRole('button', { name: 'Sign in' }).waitFor();
      await expect.poll(() => scripts.length).toBeGreaterThan(0);
      for (const script of scripts) expect(['br', 'gzip'], script.url).toContain(script.encoding);
      const total = scripts.reduce((sum, script) => sum + script.bytes, 0);
      console.log(`first load: ${scripts.length} scripts, ${total} bytes of JavaScript on the wire`);
      expect(total).toBeLessThanOrEqual(160_000);
      const map = await fresh.page.request.get(`${scripts[0]!.url}.map`);
      expect(map.status()).toBe(404);
    } finally {
      await fresh.close();
    }
  });
});
