import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import {
  callApi,
  EVENTS_API,
  screenshot,
  signIn,
  startApp,
  stopApp,
  type E2eApp,
  type SignedInBrowser,
} from './browser';

/**
 * The Events screen's Export, in Chromium against a real `serve`: the downloaded file (Playwright's download
 * event) in each format, of everything or of what the search shows. Screenshots: test-results/e2e/export-*.png.
 */

let app: E2eApp;
let signedIn: SignedInBrowser;
let page: Page;
let problems: string[];
let origin: string;

const call = (path: string, json: unknown) => callApi(app, `${EVENTS_API}/${path}`, { method: 'POST', json });

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const event = (title: string, days: number, extra: Record<string, unknown>) =>
  call('events', {
    title,
    start_date: `${inDays(days)} 20:00:00`,
    end_date: `${inDays(days)} 22:00:00`,
    ...extra,
  });

beforeAll(async () => {
  app = await startApp('export-e2e');
  ({ origin } = app);
  const concerts = await call('categories', { name: 'Concerts' });
  const rehearsals = await call('categories', { name: 'Rehearsals' });
  await call('venues', { venue: 'Teatro Verdi', status: 'publish' });
  await event('Spring concert', 5, { status: 'publish', categories: [concerts.id] });
  await event('Autumn concert', 40, { status: 'draft', categories: [concerts.id] });
  await event('Choir rehearsal', 7, { status: 'publish', categories: [rehearsals.id] });
  signedIn = await signIn(app, { timeout: 15_000, context: { acceptDownloads: true } });
  ({ page, problems } = signedIn);
}, 180_000);

afterAll(() => stopApp(app, signedIn));

/** Chooses a format and scope in the open Export panel, clicks Download: the file's name and text. */
async function exportFile(format: string, scope?: 'all' | 'filtered') {
  await page.getByTestId('export-format').selectOption(format);
  if (scope) await page.getByTestId(`export-${scope}`).check();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-download').click(),
  ]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
}

describe('Events screen, Export', { timeout: 60_000 }, () => {
  it('downloads everything, or what the search shows, as .ics and CSV; the backup is always whole', async () => {
    await page.goto(`${origin}/#/events`);
    await page.getByText('Choir rehearsal').waitFor();
    await page.getByTestId('export-open').click();

    const everything = await exportFile('ics', 'all');
    expect(everything.name).toMatch(/^calendar-desk-\d{4}-\d{2}-\d{2}\.ics$/);
    for (const title of ['Spring concert', 'Autumn concert', 'Choir rehearsal'])
      expect(everything.text).toContain(`SUMMARY:${title}`);

    // The search's own filter: one category.
    await page.getByRole('combobox', { name: 'Categories' }).selectOption({ label: 'Concerts' });
    await expect.poll(() => page.getByText('Choir rehearsal').count()).toBe(0);
    const shown = await exportFile('ics', 'filtered');
    expect(shown.name).toMatch(/^calendar-desk-filtered-[\d-]+\.ics$/);
    expect(shown.text).toContain('SUMMARY:Spring concert');
    expect(shown.text).toContain('SUMMARY:Autumn concert');
    expect(shown.text).not.toContain('Choir rehearsal');

    // Only published ones: the search's status filter goes into the file too.
    await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Published' });
    await expect.poll(() => page.getByText('Autumn concert').count()).toBe(0);
    const csv = await exportFile('csv-events', 'filtered');
    expect(csv.name).toMatch(/^calendar-desk-events-filtered-[\d-]+\.csv$/);
    const rows = parse(csv.text, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => row['Event Name'])).toEqual(['Spring concert']);
    expect(await page.getByTestId('export-hint').innerText()).toContain(
      'import the venues and the organizers first',
    );
    await screenshot(page, 'export-1440');

    await page.getByTestId('export-format').selectOption('csv-venues');
    expect(await page.getByTestId('export-filtered').isDisabled()).toBe(true);
    const venues = await exportFile('csv-venues');
    expect(venues.text).toContain('Teatro Verdi');

    const backup = await exportFile('json');
    expect(backup.name).toMatch(/^calendar-desk-backup-[\d-]+\.json$/);
    const dump = JSON.parse(backup.text) as { format: string; data: { events: object } };
    expect(dump.format).toBe('calendar-desk-dump');
    expect(Object.keys(dump.data.events)).toHaveLength(3);
    expect(problems).toEqual([]);
  });

  it('on the Calendar screen: everything, or what the calendar’s filters show, whatever the dates', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${origin}/#/calendar`);
    await page.getByRole('combobox', { name: 'Categories' }).selectOption({ label: 'Concerts' });
    await page.getByTestId('export-open').click();
    expect(await page.getByText('What the calendar’s filters show').isVisible()).toBe(true);

    const everything = await exportFile('ics', 'all');
    for (const title of ['Spring concert', 'Autumn concert', 'Choir rehearsal'])
      expect(everything.text).toContain(`SUMMARY:${title}`);
    const shown = await exportFile('ics', 'filtered');
    expect(shown.name).toMatch(/^calendar-desk-filtered-[\d-]+\.ics$/);
    // The autumn concert is weeks away, not in the month shown: the filter is the categories, not the period.
    expect(shown.text).toContain('SUMMARY:Spring concert');
    expect(shown.text).toContain('SUMMARY:Autumn concert');
    expect(shown.text).not.toContain('Choir rehearsal');
    await screenshot(page, 'export-calendar-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    const box = await page.getByTestId('export-panel').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'export-calendar-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    // Back to the whole calendar for the next test (the filter is kept for the session).
    await page.getByTestId('export-open').click();
    await page.getByRole('combobox', { name: 'Categories' }).selectOption({ index: 0 });
    expect(problems).toEqual([]);
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    // A phone-wide month shows its events as marks per day (their titles in the chosen day's list).
    await page.locator('.phone-day-mark').first().waitFor();
    await page.getByTestId('export-open').click();
    await page.getByTestId('export-format').selectOption('csv-events');
    await screenshot(page, 'export-390');
    const box = await page.getByTestId('export-panel').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'export-390');
  });
});
