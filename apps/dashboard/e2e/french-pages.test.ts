import { SCOPES } from '@spa/contract';
import { createPartnerClient } from '@spa/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en.js';
import { fr } from '../src/i18n/fr.js';
import { checkPage, launchBrowser, openPage, shootFailure, type WatchedPage } from './support/browser.js';
import { inviteByCli, signedInPerson } from './support/people.js';
import { startReceiver } from './support/receiver.js';
import { startWorld, type World } from './support/world.js';

const ORG = 'maisons-lumiere';
const VENUE = 'spa-lumiere-paris';
const ADMIN = 'admin.fr@maisons-lumiere.example';

/**
 * English words a French page never has in its own sentences. Names, codes, addresses and the server's own
 * English sentences are kept out of the check by the page itself: `<code>`, `translate="no"`, `lang="en"`.
 */
const ENGLISH =
  /(?<!\p{L})(the|and|of|to|your|you|every|with|this|that|for|by|is|are|not|no|none|from|at|any|all|as|in|yet|has|have|was|were|will|can|there|its|be|been|add|remove|send|show|hide|save|search|cancel|cancelled|booking|bookings|delivery|deliveries|endpoint|endpoints|venue|venues|guest|guests|key|people|person|invite|invited|revoke|sign|failed|succeeded|delivered|pending|confirmed|completed|event|events|when|who|what|previous|next|copy|settings|last|days|replay|never|disable|enable|status|price|start|customer|treatment|reason|fee|until|link|password)(?!\p{L})/iu;

/** The catalogue's English sentences that French says otherwise: one of them on a French page was not translated. */
const ENGLISH_SENTENCES = new Set<string>(
  Object.entries(en)
    .filter(([key, text]) => !text.includes('{') && fr[key as keyof typeof en] !== text)
    .map(([, text]) => text),
);

/** Every text a person reads or hears on the page now (text, labels, placeholders), outside names and codes. */
async function readableTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const outside = (element: Element) =>
      !element.closest('code, pre, script, style, noscript, [translate="no"], [lang="en"]');
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      const text = node.textContent?.trim();
      if (text && node.parentElement && outside(node.parentElement)) texts.push(text);
    }
    for (const element of document.querySelectorAll('[aria-label], [placeholder], [title]')) {
      if (!outside(element)) continue;
      for (const name of ['aria-label', 'placeholder', 'title']) {
        const value = element.getAttribute(name);
        if (value) texts.push(value);
      }
    }
    return texts;
  });
}

async function untranslated(page: Page): Promise<string[]> {
  // An email address is a name, whatever words it is made of.
  return (await readableTexts(page)).filter(
    (text) => ENGLISH.test(text.replace(/[\w.+-]+@[\w.-]+/g, '')) || ENGLISH_SENTENCES.has(text),
  );
}

/** Waits for the page's title and for every list on it to have loaded. */
async function settled(page: Page, title: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  await expect.poll(() => page.locator('.loading').count()).toBe(0);
}

describe('the pages in French', () => {
  let world: World;
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let admin: WatchedPage;
  let guest: WatchedPage | undefined;
  let bookingId: string;
  let endpointUrl: string;

  beforeAll(async () => {
    [world, browser, receiver] = await Promise.all([startWorld(), launchBrowser(), startReceiver()]);
    admin = await openPage(browser, world.base);
    await signedInPerson(admin, world, ADMIN, ['--org', ORG, '--role', 'admin']);
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
      external_reference: 'hotel.CHAMBRE-7',
      notes: 'Préfère une cabine calme',
      price_paid: variant.price,
    });
    if (!created.ok) throw created.error;
    bookingId = created.data.id;
    // An endpoint that has had a delivery, and a pending invitation: the webhooks, deliveries and people pages
    // then show their lists, not only their empty states.
    endpointUrl = `${receiver.url}/fr`;
    await admin.page.goto('/dashboard/webhooks');
    await admin.page.getByLabel('URL', { exact: true }).fill(endpointUrl);
    await admin.page.getByRole('button', { name: 'Add endpoint' }).click();
    await admin.page.getByRole('button', { name: 'Send test event' }).click();
    await admin.page.getByText(/^Test event delivered/).waitFor();
    await inviteByCli(world, ['--email', 'invited.fr@maisons-lumiere.example', '--org', ORG, '--role', 'admin']);
    await admin.page.getByLabel('Language').first().selectOption('fr');
    await admin.page.waitForFunction(() => document.documentElement.lang === 'fr');
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    await shootFailure(admin, `fr-admin-${task.name}`);
    await shootFailure(guest, `fr-guest-${task.name}`);
  });
  afterAll(async () => {
    await guest?.close();
    await admin?.close();
    await browser?.close();
    await receiver?.close();
    await world?.close();
  });

  it('says the bookings list and a booking, with its cancel dialog, in French', async () => {
    const { page } = admin;
    await page.goto('/dashboard/bookings');
    await settled(page, 'Réservations');
    await page.getByRole('link', { name: 'Exporter ces réservations en CSV' }).waitFor();
    expect(await untranslated(page)).toEqual([]);
    await checkPage(admin, 'bookings-fr');

    await page.goto(`/dashboard/bookings/${bookingId}`);
    await settled(page, /^Réservation n° \d+$/);
    await page.getByText('Préfère une cabine calme').waitFor();
    expect(await untranslated(page)).toEqual([]);
    await checkPage(admin, 'booking-fr');
    await page.getByRole('button', { name: /^Annuler la réservation n° \d+$/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Annuler la réservation n° \d+ \?$/ });
    await dialog.getByText(/^Frais : /).waitFor();
    expect(await untranslated(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Garder la réservation' }).click();
  });

  it('says the webhooks, an endpoint with its removal dialog, and the deliveries in French', async () => {
    const { page } = admin;
    await page.goto('/dashboard/webhooks');
    await settled(page, 'Webhooks');
    await page.getByText(/livrés en 7 jours/).waitFor();
    expect(await untranslated(page)).toEqual([]);
    await checkPage(admin, 'webhooks-fr');

    await page.getByRole('link', { name: `Point de terminaison ${endpointUrl}` }).click();
    await settled(page, 'Point de terminaison webhook');
    await page.getByRole('heading', { name: '7 derniers jours' }).waitFor();
    expect(await untranslated(page)).toEqual([]);
    await checkPage(admin, 'webhook-endpoint-fr');
    await page.getByRole('button', { name: 'Supprimer', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Supprimer ce point de terminaison ?' });
    await dialog.getByText(/L’historique de ses envois est conservé/).waitFor();
    expect(await untranslated(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Annuler' }).click();

    await page.goto('/dashboard/webhooks/deliveries');
    await settled(page, 'Envois de webhooks');
    await page.getByRole('button', { name: 'Afficher la requête et les réponses' }).first().click();
    await page.getByRole('heading', { name: 'Corps de la requête' }).first().waitFor();
    expect(await untranslated(page)).toEqual([]);
    await checkPage(admin, 'deliveries-fr');
  });

  it('says the people, the API key and the audit log in French', async () => {
    const { page } = admin;
    await page.goto('/dashboard/people');
    await settled(page, 'Personnes');
    await page.getByRole('heading', { name: 'Invitations en attente' }).waitFor();
    await page.getByText('invited.fr@maisons-lumiere.example', { exact: false }).first().waitFor();
    expect(await untranslated(page)).toEqual([]);
    await checkPage(admin, 'people-fr');

    await page.goto('/dashboard/key');
    await settled(page, 'Clé d’API');
    await page.getByText('Identifiant de la clé').waitFor();
    expect(await untranslated(page)).toEqual([]);
    await checkPage(admin, 'key-fr');
    await page.getByRole('button', { name: 'Régénérer la clé' }).click();
    const dialog = page.getByRole('dialog', { name: 'Régénérer la clé d’API ?' });
    await dialog.waitFor();
    expect(await untranslated(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Annuler' }).click();

    await page.goto('/dashboard/audit');
    await settled(page, 'Journal d’audit');
    await page.getByText('point de terminaison ajouté').first().waitFor();
    expect(await untranslated(page)).toEqual([]);
    await checkPage(admin, 'audit-fr');
  });

  it('says an invitation, and a link that no longer works, in French to a browser in French', async () => {
    const url = await inviteByCli(world, [
      '--email',
      'guest.fr@maisons-lumiere.example',
      '--org',
      ORG,
      '--role',
      'desk',
      '--venue',
      VENUE,
    ]);
    guest = await openPage(browser, world.base);
    await guest.page.addInitScript(() => localStorage.setItem('spa-dashboard-language', 'fr'));
    await guest.page.goto(url);
    await settled(guest.page, 'Acceptez votre invitation');
    await guest.page.getByText('Choisissez un mot de passe pour terminer', { exact: false }).waitFor();
    expect(await untranslated(guest.page)).toEqual([]);
    await checkPage(guest, 'invitation-fr');

    await guest.page.goto(`${new URL(url).pathname.replace(/[^/]+$/, '')}no-such-token`);
    await guest.page.getByText('Ce lien d’invitation ne fonctionne plus', { exact: false }).waitFor();
    expect(await untranslated(guest.page)).toEqual([]);
  });
});
