import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, openPage, shootFailure, type WatchedPage } from './support/browser.js';
import { nav, signedInPerson, signIn } from './support/people.js';
import { startWorld, type World } from './support/world.js';

const ORG = 'maisons-lumiere';
const ADMIN = 'admin@maisons-lumiere.example';

describe('what the dashboard refuses, and how it shows a failure', () => {
  let world: World;
  let browser: Browser;

  beforeAll(async () => {
    [world, browser] = await Promise.all([startWorld(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  describe('a desk person', () => {
    let desk: WatchedPage;
    beforeAll(async () => {
      desk = await openPage(browser, world.base);
      await signedInPerson(desk, world, 'desk.nice@maisons-lumiere.example', [
        '--org',
        ORG,
        '--role',
        'desk',
        '--venue',
        'spa-lumiere-nice',
      ]);
    });
    afterEach(({ task }) => (task.result?.state === 'fail' ? shootFailure(desk, `desk-${task.name}`) : undefined));
    afterAll(() => desk?.close());

    it('sees no key, webhook, people or audit section, and cannot open the key or webhook pages', async () => {
      const sections = await desk.page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allInnerTexts();
      expect(sections).toEqual(['Overview', 'Bookings', 'Venue desk', 'Account']);
      for (const path of ['/dashboard/key', '/dashboard/webhooks', '/dashboard/webhooks/deliveries']) {
        await desk.page.goto(path);
        await desk.page.getByText('This page is for administrators').waitFor();
        await expect.poll(() => desk.page.getByRole('button', { name: /Reveal key|Add endpoint/ }).count()).toBe(0);
      }
      await checkPage(desk, 'desk-refused');
    });

    it('is refused by the API too, with 403 Forbidden', async () => {
      const answers = await desk.page.evaluate(async () => {
        const csrf = ((await (await fetch('/dashboard/api/session')).json()) as { data: { csrf_token: string } }).data
          .csrf_token;
        const headers = { 'x-csrf-token': csrf, 'content-type': 'application/json' };
        const calls = [
          fetch('/dashboard/api/key'),
          fetch('/dashboard/api/key/reveal', { method: 'POST', headers }),
          fetch('/dashboard/api/webhook-endpoints'),
          fetch('/dashboard/api/webhook-endpoints', {
            method: 'POST',
            headers,
            body: JSON.stringify({ url: 'https://example.com/hooks' }),
          }),
          fetch('/dashboard/api/webhook-deliveries'),
        ];
        return Promise.all(
          calls.map(async (call) => {
            const res = await call;
            return [res.status, ((await res.json()) as { error: string }).error];
          }),
        );
      });
      expect(answers).toEqual(Array.from({ length: 5 }, () => [403, 'Forbidden']));
    });
  });

  describe('an admin', () => {
    let admin: WatchedPage;
    beforeAll(async () => {
      admin = await openPage(browser, world.base);
      await signedInPerson(admin, world, ADMIN, ['--org', ORG, '--role', 'admin']);
    });
    afterEach(({ task }) => (task.result?.state === 'fail' ? shootFailure(admin, `admin-${task.name}`) : undefined));
    afterAll(() => admin?.close());

    it("shows a refused action's error text and request id", async () => {
      await admin.page.goto('/dashboard/people');
      const form = admin.page.getByRole('form', { name: 'Invite a person' });
      await form.getByLabel('Email').fill(ADMIN);
      await form.getByLabel('Role').selectOption('admin');
      await form.getByRole('button', { name: 'Invite' }).click();
      const alert = form.getByRole('alert');
      await alert.getByText('A person with this email already exists').waitFor();
      await expect.poll(() => alert.innerText()).toMatch(/Request id: [\w-]{8,}/);
      await checkPage(admin, 'people-error');
    });

    it('shows a page whose data could not load with the error text and request id', async () => {
      await admin.page.goto('/dashboard/bookings?venue=no-such-venue');
      const alert = admin.page.getByRole('alert');
      await alert.getByText('Venue not found').waitFor();
      await expect.poll(() => alert.innerText()).toMatch(/Request id: [\w-]{8,}/);
      await checkPage(admin, 'bookings-error');
    });

    it('sends an expired session to sign-in with a message, and back to where the person was', async () => {
      await admin.page.goto('/dashboard/people');
      await admin.page.getByRole('heading', { name: 'People' }).waitFor();
      // The session ends on the server (as at its idle or absolute limit) while the page is open.
      const ended = await admin.page.evaluate(async () => {
        const me = (await (await fetch('/dashboard/api/session')).json()) as { data: { csrf_token: string } };
        const res = await fetch('/dashboard/api/session', {
          method: 'DELETE',
          headers: { 'x-csrf-token': me.data.csrf_token },
        });
        return res.status;
      });
      expect(ended).toBe(204);
      await nav(admin, 'Audit log').click();
      await admin.page.getByText('Your session has expired').waitFor();
      expect(new URL(admin.page.url()).pathname).toBe('/dashboard/sign-in');
      await checkPage(admin, 'session-expired');
      await signIn(admin, ADMIN);
      await admin.page.getByRole('heading', { name: 'Audit log' }).waitFor();
      expect(new URL(admin.page.url()).pathname).toBe('/dashboard/audit');
    });

    it('signs out: the next page asks to sign in again', async () => {
      const other = await openPage(browser, world.base);
      try {
        await other.page.goto('/dashboard/sign-in');
        await signIn(other, ADMIN);
        await other.page.getByRole('button', { name: 'Sign out' }).click();
        await other.page.getByText('You have signed out').waitFor();
        await other.page.goto('/dashboard/key');
        await other.page.getByRole('button', { name: 'Sign in' }).waitFor();
        expect(new URL(other.page.url()).searchParams.get('next')).toBe('/key');
        await expect.poll(() => other.page.getByText('Your session has expired').count()).toBe(0);
      } finally {
        await other.close();
      }
    });

    it('answers an unknown page with a page that leads back', async () => {
      await admin.page.goto('/dashboard/no-such-page');
      await admin.page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await checkPage(admin, 'not-found');
    });
  });
});
