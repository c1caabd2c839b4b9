import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  axeFindings,
  screenshot,
  signIn,
  startApp,
  stopApp,
  type E2eApp,
  type SignedInBrowser,
} from './browser';

/**
 * The "Share this calendar" guide in Chromium against a real `serve`: offered once on the calendar at first
 * start (put away, it stays away after a reload), reachable from Settings and Publish, and its three branches
 * (a WordPress site, a CalDAV calendar, nothing yet) each leading to the step that fits, in plain words; the
 * screens whose jargon was replaced by plain labels with a hint. axe-core clean; screenshots at 1280 and 390 px:
 * test-results/e2e/share-*.png.
 */
declare const document: {
  documentElement: { scrollWidth: number; clientWidth: number };
  activeElement: { id: string } | null;
  querySelectorAll(selector: string): Iterable<{ textContent: string | null }>;
};

let app: E2eApp;
let signedIn: SignedInBrowser;
let page: Page;
let problems: string[];
let origin: string;

const WIDTHS = [1280, 390] as const;

/** The jargon quoted as confusing (issue 27): none of it may be a label, a button, a heading or a choice. */
const JARGON = [
  'Application password',
  'Token',
  'webcal://',
  'Revoke',
  'New addresses',
  'Months of past events',
  'For developers',
  'Site time zone',
  'Excerpt',
  'Pending review',
];

/** The words of the page's labels, buttons, headings, choices and summaries, each trimmed. */
const labelsOnPage = () =>
  page.evaluate(() =>
    [...document.querySelectorAll('label, button, h1, h2, h3, summary, option, dt, legend, a')].map(
      (element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim(),
    ),
  );

async function expectPlainLabels() {
  const labels = await labelsOnPage();
  expect(
    labels.filter((label) => JARGON.some((term) => label === term || label.startsWith(`${term} `))),
  ).toEqual([]);
}

async function expectCleanAtEachWidth(name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    expect(await axeFindings(page), `${name} at ${width} px`).toEqual([]);
    const overflow = await page.evaluate(() => {
      const root = document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
    await screenshot(page, `share-${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

beforeAll(async () => {
  app = await startApp('share-guide-e2e');
  ({ origin } = app);
  const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const response = await fetch(`${origin}/wp-json/cal/events/v1/events`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${app.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      title: 'Choir rehearsal',
      status: 'publish',
      start_date: `${day} 19:30:00`,
      end_date: `${day} 21:30:00`,
    }),
  });
  expect(response.status, await response.text()).toBe(201);
  signedIn = await signIn(app, {
    context: { viewport: { width: 1280, height: 900 }, acceptDownloads: true },
    ready: (signedInPage) => signedInPage.getByTestId('share-invite').waitFor(),
  });
  ({ page, problems } = signedIn);
}, 180_000);

afterAll(async () => {
  await stopApp(app, signedIn);
});

describe('the first-run invitation', { timeout: 90_000 }, () => {
  it('is offered on the calendar at first start, and once put away it is not offered again', async () => {
    const invite = page.getByTestId('share-invite');
    expect(await invite.innerText()).toContain('Who else should see this calendar?');
    await expectCleanAtEachWidth('invite');
    await invite.getByRole('button', { name: 'Not now' }).click();
    await invite.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
    expect(await page.getByTestId('share-invite').count()).toBe(0);
  });

  it('stays reachable from Settings and from the Publish screen', async () => {
    await page.goto(`${origin}/#/settings`);
    await page.getByTestId('settings-share-guide').click();
    await page.getByRole('heading', { name: 'What does your organisation have?' }).waitFor();
    await page.goto(`${origin}/#/sync`);
    await page.getByTestId('sync-share-guide').click();
    await page.getByRole('heading', { name: 'What does your organisation have?' }).waitFor();
    expect(page.url()).toMatch(/#\/share$/);
    await expectCleanAtEachWidth('question');
  });
});

describe('the three branches of the guide', { timeout: 90_000 }, () => {
  it('a WordPress site: how to make the website password for this app, then the add-a-site form', async () => {
    await page.goto(`${origin}/#/share`);
    await page.getByTestId('share-wordpress').click();
    const step = page.getByTestId('share-step-wordpress');
    await step.waitFor();
    expect(page.url()).toContain('#/share?have=wordpress');
    expect(await step.innerText()).toContain(
      'WordPress admin, open Users → Profile, find “Application Passwords”',
    );
    await expectCleanAtEachWidth('wordpress');

    await step.getByTestId('share-add-site').click();
    const dialog = page.getByRole('dialog', { name: 'Add a site' });
    await dialog.waitFor();
    expect(page.url()).toMatch(/#\/sync$/);
    // The form asks for the website password for this app, and says where it is made.
    const secret = dialog.getByLabel('Website password for this app');
    await secret.waitFor();
    const field = dialog.locator('.field', { has: page.locator('#remote-secret') });
    expect(await field.locator('.hint').innerText()).toContain(
      'Made on your site: WordPress admin → Users → Profile → Application Passwords.',
    );
    expect(await dialog.locator('#remote-auth option').allInnerTexts()).toEqual([
      'Website password for this app',
      'Access key of another Calendar Desk',
      'Nothing',
    ]);
    await expectCleanAtEachWidth('add-site');
    await dialog.locator('#remote-auth').selectOption('token');
    expect(await field.locator('label').innerText()).toBe('Access key');
    expect(await field.locator('.hint').innerText()).toContain('calendar-desk token');
    await expectPlainLabels();
    await expectCleanAtEachWidth('add-site-key');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Going back does not open the form again.
    await page.reload();
    await page.getByRole('heading', { name: 'No site yet' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('a CalDAV calendar: the app password to make on the server, then the form that adds it', async () => {
    await page.goto(`${origin}/#/share`);
    await page.getByTestId('share-caldav').click();
    const step = page.getByTestId('share-step-caldav');
    await step.waitFor();
    expect(await step.innerText()).toContain('Settings → Security → “Create new app password”');
    await expectCleanAtEachWidth('caldav');
    await step.getByTestId('share-add-caldav').click();
    const dialog = page.getByRole('dialog', { name: 'Add a site' });
    await dialog.waitFor();
    expect(await dialog.getByTestId('remote-kind-caldav').isChecked()).toBe(true);
    await dialog.getByLabel('Server or calendar address').waitFor();
    expect(await dialog.locator('#remote-auth').count()).toBe(0);
    await expectCleanAtEachWidth('add-caldav');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('nothing yet: why phones need a server, an .ics file to send, the feeds here, a site', async () => {
    await page.goto(`${origin}/#/share`);
    await page.getByTestId('share-nothing').click();
    const step = page.getByTestId('share-step-nothing');
    await step.waitFor();
    expect(await step.getByTestId('share-why').innerText()).toBe(
      'Phones and colleagues need a server on the internet to reach the calendar. The addresses Calendar Desk makes (its feeds) answer on this computer only, and only while it runs, so a phone cannot use them.',
    );
    await expectCleanAtEachWidth('nothing');

    // The calendar file to send, downloaded from the guide itself.
    await step.getByTestId('export-open').click();
    expect(await step.getByTestId('export-format').inputValue()).toBe('ics');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      step.getByTestId('export-download').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.ics$/);
    const file = await readFile((await download.path())!, 'utf8');
    expect(file).toContain('BEGIN:VCALENDAR');
    expect(file).toContain('SUMMARY:Choir rehearsal');

    // The feeds of this computer: Settings opens at them, and they say where they answer, in words.
    await step.getByTestId('share-feeds').click();
    const feeds = page.getByTestId('feeds-section');
    await feeds.getByTestId('feed-whole').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('feeds');
    const localOnly = await feeds.getByTestId('feeds-local-only').innerText();
    expect(localOnly).toContain('phones and colleagues cannot reach them');
    expect(localOnly).not.toContain('Publish screen');
    await feeds.getByTestId('feeds-share-guide').click();
    await page.getByTestId('share-nothing').click();
    await page.getByTestId('share-site').click();
    await page.getByTestId('share-step-wordpress').waitFor();
    await page.getByTestId('share-again').click();
    await page.getByRole('heading', { name: 'What does your organisation have?' }).waitFor();
    expect(problems).toEqual([]);
  });
});

describe('plain words with a hint', { timeout: 90_000 }, () => {
  it('Settings: time zone, currency, feeds and the developers part in plain labels, the terms in hints', async () => {
    await page.goto(`${origin}/#/settings`);
    const feeds = page.getByTestId('feeds-section');
    await feeds.getByTestId('feed-whole').waitFor();
    await page.getByLabel('Time zone of the calendar').waitFor();
    expect(await page.getByLabel('Currency in three letters').inputValue()).toMatch(/^[A-Z]{3}$/);
    expect(await feeds.getByLabel('How many months back').inputValue()).toMatch(/^\d+$/);
    expect(await feeds.getByTestId('feed-address-hint').innerText()).toContain('webcal://');
    const revoke = feeds.getByRole('button', { name: 'Turn the feeds off' });
    expect(await revoke.getAttribute('aria-describedby')).toBe('feeds-revoke-hint');
    expect(await feeds.locator('#feeds-revoke-hint').innerText()).toContain('revokes every address');
    expect(await feeds.locator('#feeds-regenerate-hint').innerText()).toContain('apps must subscribe again');
    const developers = page.getByTestId('developers');
    expect(await developers.locator('summary h2').innerText()).toBe('Connect other programs');
    expect(await developers.locator('summary').innerText()).toContain('For developers:');
    await developers.locator('summary').click();
    expect(await developers.locator('.token-hint').innerText()).toContain('API token');
    await expectPlainLabels();
    await feeds.scrollIntoViewIfNeeded();
    await expectCleanAtEachWidth('settings');
  });

  it('the editor: a short summary and "needs approval", each with its hint', async () => {
    await page.goto(`${origin}/#/events/new`);
    await page.getByLabel('Short summary').waitFor();
    expect(
      await page
        .locator('.field', { has: page.locator('#event-excerpt') })
        .locator('.hint')
        .innerText(),
    ).toContain('excerpt');
    await page.locator('#event-status').selectOption({ label: 'Needs approval' });
    expect(
      await page
        .locator('.field', { has: page.locator('#event-status') })
        .locator('.hint')
        .innerText(),
    ).toContain('Pending review');
    await expectPlainLabels();
    await page.locator('#event-status').scrollIntoViewIfNeeded();
    await expectCleanAtEachWidth('editor');
    expect(problems).toEqual([]);
  });
});
