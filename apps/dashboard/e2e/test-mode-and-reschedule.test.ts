import { SCOPES } from '@spa/contract';
import { createPartnerClient } from '@spa/sdk';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, shootFailure, type WatchedPage } from './support/browser.js';
import { signedInPerson } from './support/people.js';
import { startWorld, type World } from './support/world.js';

const ORG = 'maisons-lumiere';
const VENUE = 'spa-lumiere-nice';
const BANNER = 'Test mode: you are viewing test data';

/** A booking made with one of the organisation's keys (live or test) through the partner API, three days ahead. */
async function bookWith(world: World, mode: 'live' | 'test', lastName: string, slotIndex: number) {
  const out = await world.spa('keys', 'create', '--org', ORG, '--scopes', SCOPES.join(','), '--mode', mode);
  const key = /sk_(live|test)_\w+/.exec(out)![0];
  const client = createPartnerClient({ baseUrl: world.base, apiKey: key });
  const treatments = await client.listTreatments(VENUE);
  if (!treatments.ok) throw treatments.error;
  const variant = treatments.data.flatMap((treatment) => treatment.variants)[0]!;
  const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const availability = await client.getVariantAvailability(VENUE, variant.id, { from: day, to: day });
  if (!availability.ok) throw availability.error;
  const days = 'days' in availability.data ? availability.data.days : [availability.data];
  const created = await client.createBooking(VENUE, {
    variant_id: variant.id,
    start_at: days.flatMap((d) => d.slots)[slotIndex]!.start_at,
    guest: { first_name: 'Ada', last_name: lastName, email: `${lastName.toLowerCase()}@example.com`, language: 'en' },
    price_paid: variant.price,
  });
  if (!created.ok) throw created.error;
  return created.data;
}

describe('test mode and moving a booking, in the browser', () => {
  let world: World;
  let browser: Browser;
  let admin: WatchedPage;
  let desk: WatchedPage;

  beforeAll(async () => {
    [world, browser] = await Promise.all([startWorld(), launchBrowser()]);
    admin = await openPage(browser, world.base);
    desk = await openPage(browser, world.base);
    await signedInPerson(admin, world, 'admin.modes@maisons-lumiere.example', ['--org', ORG, '--role', 'admin']);
    await signedInPerson(desk, world, 'desk.modes@maisons-lumiere.example', [
      '--org',
      ORG,
      '--role',
      'desk',
      '--venue',
      VENUE,
    ]);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    await shootFailure(admin, `modes-admin-${task.name}`);
    await shootFailure(desk, `modes-desk-${task.name}`);
  });
  afterAll(async () => {
    await desk?.close();
    await admin?.close();
    await browser?.close();
    await world?.close();
  });

  it('shows an admin a test booking with the banner once switched, and never the desk person', async () => {
    await bookWith(world, 'test', 'Testerson', 0);
    const { page } = admin;
    await page.goto('/dashboard/bookings');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect.poll(() => page.getByText('Testerson').count()).toBe(0);
    await expect.poll(() => page.getByText(BANNER).count()).toBe(0);
    await page.getByRole('radio', { name: 'Test data' }).check();
    await page.getByText(BANNER).waitFor();
    await page.getByText('Testerson').first().waitFor();
    // The choice holds across pages and a reload of the tab.
    await page.goto('/dashboard/key');
    await page.getByText(BANNER).waitFor();
    await page.getByRole('radio', { name: 'Live data' }).check();
    await expect.poll(() => page.getByText(BANNER).count()).toBe(0);

    await expect.poll(() => desk.page.getByRole('radio', { name: 'Test data' }).count()).toBe(0);
    await desk.page.goto('/dashboard/bookings');
    await desk.page.getByRole('heading', { level: 1 }).waitFor();
    await expect.poll(() => desk.page.locator('.loading').count()).toBe(0);
    await expect.poll(() => desk.page.getByText('Testerson').count()).toBe(0);
    await expect.poll(() => desk.page.getByText(BANNER).count()).toBe(0);
  });

  it('lets an admin move a booking to another free time from its page', async () => {
    const booking = await bookWith(world, 'live', 'Moveson', 1);
    const { page } = admin;
    await page.goto(`/dashboard/bookings/${booking.id}`);
    const form = page.getByRole('form', { name: 'Move to another time' });
    await form.waitFor();
    const slots = form.getByRole('radio');
    await expect.poll(() => slots.count()).toBeGreaterThan(3);
    const choice = slots.nth(3);
    const target = await choice.getAttribute('value');
    await choice.check();
    await form.getByRole('button', { name: `Move booking #${booking.booking_number}` }).click();
    await page.getByText(`Booking #${booking.booking_number} moved to`).waitFor();
    const answer = await page.evaluate(
      async (id) => (await (await fetch(`/dashboard/api/bookings/${id}`)).json()) as { data: { start_at: string } },
      booking.id,
    );
    expect(answer.data.start_at).toBe(target);
  });
});
