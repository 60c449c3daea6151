import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

const REPO = fileURLToPath(new URL('../../../..', import.meta.url));

/** Debian's Chromium (`apt-get install chromium`): a browser download is not reachable here. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Where each page's screenshots go: `pnpm screenshots:dashboard` writes docs/dashboard/ (DASHBOARD_SCREENSHOTS);
 * a plain run writes .tmp/dashboard-screenshots/, so tests do not dirty the work tree.
 */
const SCREENSHOTS = resolve(REPO, process.env.DASHBOARD_SCREENSHOTS ?? '.tmp/dashboard-screenshots');

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** A response the app asks for and handles (a 401 before sign-in, a 403 shown as a page): Chromium logs each. */
const HANDLED_API_ANSWER = /^Failed to load resource: the server responded with a status of 4\d\d/;

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions so far; `check()` fails the test on any not expected. */
  errors: string[];
  /** Allows console errors matching `pattern` (a test that makes a call fail on purpose). */
  expectConsoleError(pattern: RegExp): void;
  /** Fails on a console error, an uncaught exception or a blank page. */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** A fresh browser context (its own cookies) and page at 1280 px, watched for console errors and blank pages. */
export async function openPage(browser: Browser, base: string): Promise<WatchedPage> {
  const context = await browser.newContext({
    baseURL: base,
    viewport: { width: 1280, height: 800 },
    timezoneId: 'Europe/London',
    locale: 'en-GB',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  const errors: string[] = [];
  const allowed: RegExp[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (HANDLED_API_ANSWER.test(text) && message.location().url.includes('/dashboard/api/')) return;
    errors.push(`console: ${text} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`exception: ${error.message}`));
  const expectNoUnexpectedErrors = () =>
    expect(errors.filter((error) => !allowed.some((pattern) => pattern.test(error)))).toEqual([]);
  const watched: WatchedPage = {
    page,
    context,
    errors,
    expectConsoleError: (pattern) => allowed.push(pattern),
    check: async () => {
      expectNoUnexpectedErrors();
      await expectNotBlank(page);
    },
    close: async () => {
      try {
        expectNoUnexpectedErrors();
      } finally {
        await context.close();
      }
    },
  };
  return watched;
}

async function expectNotBlank(page: Page): Promise<void> {
  const text = await page.locator('#root').innerText({ timeout: 5_000 });
  expect(text.trim().length, `the page ${page.url()} rendered blank`).toBeGreaterThan(0);
}

/**
 * Every page goes through here once it shows what it is for: no console error, not blank, no serious or
 * critical accessibility violation, usable at 375 px (nothing wider than the screen) and a screenshot at both widths.
 */
export async function checkPage(watched: WatchedPage, name: string): Promise<void> {
  const { page } = watched;
  await watched.check();
  expect(await seriousViolations(page), `accessibility of ${name}`).toEqual([]);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} is wider than a 375 px screen`).toBeLessThanOrEqual(1);
  // A table's box scrolls rather than widen the page, so it is checked on its own: its rows stack into cards.
  const scrolling = await page.evaluate(
    () => [...document.querySelectorAll('.table-wrap')].filter((box) => box.scrollWidth - box.clientWidth > 1).length,
  );
  expect(scrolling, `tables of ${name} scrolling sideways at 375 px`).toBe(0);
  // The narrow layout is checked too: tables stack into cards there, and must still read as tables.
  expect(await seriousViolations(page), `accessibility of ${name} at 375 px`).toEqual([]);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-375.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Serious and critical WCAG 2.1 A/AA violations axe finds on the page as it is laid out now. */
async function seriousViolations(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return axe.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((n) => n.target.join(' ')).join('; ')})`,
    );
}

/** What the page showed when a test failed, kept beside the screenshots for whoever reads the failure. */
export async function shootFailure(watched: WatchedPage | undefined, testName: string): Promise<void> {
  if (!watched || watched.page.isClosed()) return;
  mkdirSync(join(SCREENSHOTS, 'failures'), { recursive: true });
  const file = join(SCREENSHOTS, 'failures', `${testName.replace(/\W+/g, '-').slice(0, 80)}.png`);
  await watched.page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
  console.error(
    `failed at ${watched.page.url()}; screenshot: ${file}; console: ${watched.errors.slice(0, 3).join(' | ')}`,
  );
}
