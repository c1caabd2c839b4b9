import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  callApi,
  screenshot,
  signIn,
  startApp,
  stopApp,
  whatThePageShows,
  type E2eApp,
  type SignedInBrowser,
} from './browser';
import { LAST_PORT_FILE } from '../../src/main/lastPort';

/**
 * The Settings screen's "Calendar feeds" section and the Publish screen's website subscribe links, in
 * Chromium against a real `serve`: addresses a calendar app can fetch, Copy, revoke and regenerate with a
 * confirmation, the past-months setting. Screenshots: test-results/e2e/feeds-*.png.
 */
declare const navigator: { clipboard: { readText(): Promise<string> } };
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

let app: E2eApp;
let signedIn: SignedInBrowser;
let page: Page;
let problems: string[];
let origin: string;
let squatter: Server;
let takenPort: number;

const call = (path: string, method: string, json: unknown) => callApi(app, path, { method, json });

beforeAll(async () => {
  // The folder last served on a port another program holds now: the calendar moves, and says so.
  squatter = createServer();
  await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
  takenPort = (squatter.address() as AddressInfo).port;
  app = await startApp('feeds-e2e', [], async (dataDir) => {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await writeFile(join(dataDir, LAST_PORT_FILE), JSON.stringify({ port: takenPort }));
  });
  ({ origin } = app);
  const concerts = await call('cal/events/v1/categories', 'POST', { name: 'Concerts' });
  await call('cal/events/v1/categories', 'POST', { name: 'Rehearsals' });
  const venue = await call('cal/events/v1/venues', 'POST', { venue: 'Teatro Verdi', status: 'publish' });
  const day = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  await call('cal/events/v1/events', 'POST', {
    title: 'Spring concert',
    status: 'publish',
    start_date: `${day} 20:00:00`,
    end_date: `${day} 22:00:00`,
    categories: [concerts.id],
    venue: venue.id,
  });
  await call('calendar-desk/v1/remotes', 'PUT', [
    {
      name: 'Choir website',
      root: 'https://choir.example.org/wp-json/',
      namespace: 'tribe/events/v1',
      auth_type: 'none',
    },
  ]);
  // A step that waits names what it waited for, within the test's own time.
  signedIn = await signIn(app, {
    timeout: 15_000,
    context: { permissions: ['clipboard-read', 'clipboard-write'] },
  });
  ({ page, problems } = signedIn);
}, 180_000);

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail')
    console.error(`${task.name}\n${await whatThePageShows(page, '[data-testid=feeds-section]')}`);
});

afterAll(async () => {
  await stopApp(app, signedIn);
  await new Promise((resolve) => squatter?.close(resolve));
});

const wholeAddress = () => page.getByTestId('feed-whole').innerText();
const httpOf = (webcal: string) => webcal.replace(/^webcal:/, 'http:');

/** The Settings screen at desktop width, its feeds section shown: each test starts here, whatever one before left. */
async function openFeedsSection() {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${origin}/#/settings`);
  const section = page.getByTestId('feeds-section');
  await section.getByRole('heading').first().waitFor();
  return section;
}

async function confirmAction(button: string) {
  await page.getByTestId(button).click();
  await page.getByRole('dialog').getByTestId('confirm').click();
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
}

// A first visit of Settings on a loaded machine (CI) loads its screen's code: more than the default 20 s.
describe('Settings, Calendar feeds', { timeout: 60_000 }, () => {
  it('shows addresses a calendar app can subscribe to, whole, per category and per venue, with Copy', async () => {
    const section = await openFeedsSection();
    await section.getByTestId('feed-whole').waitFor();
    const whole = await wholeAddress();
    expect(whole).toMatch(new RegExp(`^webcal://${origin.slice(7)}/feeds/[\\w-]{43}/calendar\\.ics$`));
    const feed = await fetch(httpOf(whole));
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain('SUMMARY:Spring concert');
    await expect
      .poll(() => section.getByTestId('feed-categories').innerText())
      .toMatch(/Concerts\s+webcal:\/\/.+\/category\/concerts\.ics[\s\S]*Rehearsals/);
    expect(await section.getByTestId('feed-venues').innerText()).toMatch(
      /Teatro Verdi\s+webcal:\/\/.+\/venue\/teatro-verdi\.ics/,
    );

    // The address moved since the last start: the section says so, naming both ports.
    expect(await section.getByTestId('address-notice').innerText()).toContain(
      `changed from http://127.0.0.1:${takenPort} to ${origin}`,
    );

    await section.getByRole('button', { name: 'Copy' }).first().click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(whole);
  });

  it('fits a phone: long addresses wrap, nothing scrolls sideways', async () => {
    const section = await openFeedsSection();
    await section.getByTestId('feed-whole').waitFor();
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'feeds-settings-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await section.getByTestId('feed-whole').scrollIntoViewIfNeeded();
    await screenshot(page, 'feeds-settings-390');
    // Nothing scrolls sideways on a phone: long addresses wrap.
    const overflow = await page.evaluate(() => {
      const root = document.documentElement;
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
    });
    expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.clientWidth);
  });

  it('revokes the addresses after a confirmation (they answer 404), and makes new ones', async () => {
    await (await openFeedsSection()).getByTestId('feed-whole').waitFor();
    const old = await wholeAddress();
    await confirmAction('feeds-revoke');
    await page.getByTestId('feeds-off').waitFor();
    expect((await fetch(httpOf(old))).status).toBe(404);
    await confirmAction('feeds-regenerate');
    await page.getByTestId('feed-whole').waitFor();
    const fresh = await wholeAddress();
    expect(fresh).not.toBe(old);
    expect((await fetch(httpOf(fresh))).status).toBe(200);
    expect((await fetch(httpOf(old))).status).toBe(404);
  });

  it('changes how many months of past events the feeds keep', async () => {
    const section = await openFeedsSection();
    await section.getByLabel('How many months back').fill('12');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => section.innerText()).toContain('the past 12 month(s)');
  });
});

describe('Publish, the website subscribe links', () => {
  it("shows the WordPress site's own ?ical=1 feed, per category, and a Google Calendar link", async () => {
    await page.goto(`${origin}/#/sync`);
    const links = page.getByTestId('website-links');
    await links.waitFor();
    expect(await links.getByTestId('website-ical').innerText()).toBe(
      'https://choir.example.org/events/?ical=1',
    );
    expect(await links.getByTestId('website-google').innerText()).toBe(
      'https://www.google.com/calendar/render?cid=webcal%3A%2F%2Fchoir.example.org%2Fevents%2F%3Fical%3D1',
    );
    await links.getByText('By category').click();
    await expect
      .poll(() => links.innerText())
      .toContain('https://choir.example.org/events/category/concerts/?ical=1');
    await links.scrollIntoViewIfNeeded();
    await screenshot(page, 'feeds-publish-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await links.scrollIntoViewIfNeeded();
    await screenshot(page, 'feeds-publish-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(problems).toEqual([]);
  });
});
