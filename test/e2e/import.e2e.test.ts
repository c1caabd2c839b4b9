import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  axeFindings,
  callApi,
  screenshot,
  signIn,
  startApp,
  stopApp,
  type E2eApp,
  type SignedInBrowser,
  navigateTo,
} from './browser';
import { startCalendarSite, type CalendarSite } from '../helpers/calendarSite';

/**
 * The Import screen in Chromium against a real `serve`: a CSV with a bad row previewed (the skip with its line),
 * imported with a progress bar, an .ics imported too, both seen on the Calendar screen and undone (the events
 * in the Trash); an address served by a real local HTTP server, added and refreshed after its file changed.
 * Screenshots: test-results/e2e/import-*.png.
 */
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

let app: E2eApp;
let signedIn: SignedInBrowser;
let page: Page;
/** Another site's calendar feed: a real HTTP server on a loopback port. */
let site: CalendarSite;
const FEED = '/calendar.ics';

/** Events in June 2027 (far from today, so nothing else is in that month); a row whose date is not one. */
const CSV_ROWS = [
  'Event Name,Event Start Date,Event Start Time,Event End Date,Event End Time',
  'Spring concert,05/06/2027,20:00,05/06/2027,22:00',
  'Broken row,someday,12:00,,',
  'Choir rehearsal,12/06/2027,19:30,12/06/2027,21:30',
];
const csv = (rows: string[]) => `${rows.join('\n')}\n`;

function ics(events: { uid: string; title: string; day: string }[]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Calendar Desk tests//EN'];
  for (const event of events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${event.uid}`,
      'DTSTAMP:20260101T000000Z',
      `DTSTART:${event.day}T160000Z`,
      `DTEND:${event.day}T180000Z`,
      `SUMMARY:${event.title}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}

/** A calendar file of two June 2027 events, imported once, then previewed again (nothing to do). */
const GALA_ICS = ics([
  { uid: 'gala@example.org', title: 'Gala evening', day: '20270615' },
  { uid: 'open@example.org', title: 'Open rehearsal', day: '20270616' },
]);

const api = <T>(path: string, method = 'GET', json?: unknown) => callApi<T>(app, path, { method, json });

/** The titles of the events of June 2027 the API lists (the trash left out). */
async function juneTitles(): Promise<string[]> {
  const list = await api<{ events: { title: string }[] }>(
    'cal/events/v1/events?start_date=2027-06-01&end_date=2027-06-30&status=any&per_page=50',
  );
  return list.events.map((event) => event.title).sort();
}

const nav = (label: string) => navigateTo(page, label);

/** The Calendar screen's list of June 2027: the titles drawn. */
async function calendarJune(): Promise<string[]> {
  await page.goto(`${app.origin}/#/calendar?view=listMonth&date=2027-06-01`);
  await page.locator('.fc-list, .fc-list-empty').first().waitFor();
  await page.locator('.loading-pill').waitFor({ state: 'hidden' });
  const titles = await page.locator('.fc-list-event-title a').allTextContents();
  return titles.map((title) => title.trim()).sort();
}

async function trashTitles(): Promise<string> {
  await page.goto(`${app.origin}/#/trash`);
  await page.getByTestId('trash-events').waitFor();
  return page.getByTestId('trash-events').innerText();
}

async function noSidewaysScroll() {
  const overflow = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.clientWidth);
}

const file = (name: string, text: string, mimeType: string) => ({
  name,
  mimeType,
  buffer: Buffer.from(text, 'utf8'),
});

beforeAll(async () => {
  app = await startApp('import-e2e');
  site = await startCalendarSite();
  site.serve(FEED, {
    contentType: 'text/calendar; charset=utf-8',
    body: ics([
      { uid: 'fair@example.org', title: 'Summer fair', day: '20270620' },
      { uid: 'picnic@example.org', title: 'Choir picnic', day: '20270621' },
    ]),
  });
  signedIn = await signIn(app, { timeout: 15_000 });
  page = signedIn.page;
}, 180_000);

afterAll(async () => {
  await stopApp(app, signedIn);
  await site?.close();
});

describe('Import screen, a file', { timeout: 120_000 }, () => {
  it('refuses a CSV with a bad row, saying its line, and previews the file once fixed', async () => {
    await nav('Import');
    await page.getByRole('heading', { name: 'Import', exact: true }).waitFor();
    expect(await page.getByTestId('import-csv-options').innerText()).toContain(
      'import the venues and the organizers before the events',
    );
    // Day first: 12/06/2027 is 12 June (not 6 December).
    await page.getByTestId('import-day-first').check();
    await page.getByTestId('import-file').setInputFiles(file('season.csv', csv(CSV_ROWS), 'text/csv'));
    const problems = page.getByTestId('import-problems');
    await problems.waitFor();
    expect(await problems.innerText()).toMatch(/^Line 3: Event Start Date: "someday" is not a date/);
    expect(await page.getByTestId('import-run').count()).toBe(0);
    await screenshot(page, 'import-problems-1440');
    expect(await juneTitles()).toEqual([]);

    // The row taken out: the preview says what would happen, row by row, and writes nothing.
    const fixed = CSV_ROWS.filter((row) => !row.startsWith('Broken'));
    await page.getByTestId('import-file').setInputFiles(file('season.csv', csv(fixed), 'text/csv'));
    const preview = page.getByTestId('import-preview');
    await preview.waitFor();
    expect(await problems.count()).toBe(0);
    expect(await preview.getByTestId('count-create').innerText()).toBe('2 to create');
    expect(await preview.getByTestId('count-skip').innerText()).toBe('0 skipped');
    expect(await preview.getByRole('row').nth(1).innerText()).toMatch(
      /^2\s+Event\s+Spring concert\s+Create$/,
    );
    expect(await preview.getByRole('row').nth(2).innerText()).toMatch(
      /^3\s+Event\s+Choir rehearsal\s+Create$/,
    );
    expect(await juneTitles()).toEqual([]);
    await screenshot(page, 'import-preview-1440');
    expect(await axeFindings(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await preview.scrollIntoViewIfNeeded();
    await noSidewaysScroll();
    await screenshot(page, 'import-preview-390');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('imports it with a progress bar, then says what it did', async () => {
    await page.getByTestId('import-run').click();
    const bar = page.getByRole('progressbar', { name: 'Import progress' });
    await bar.waitFor();
    // Read by a screen reader as rows done of the file's two rows (or "Starting…" before the job counted them).
    expect(await bar.getAttribute('aria-valuetext')).toMatch(/^(Starting…|[0-2] of 2 rows)$/);
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThanOrEqual(100);
    await screenshot(page, 'import-progress-1440');
    const result = page.getByTestId('import-result');
    await result.waitFor();
    expect(await result.getByTestId('count-create').innerText()).toBe('2 created');
    await page.getByTestId('import-undo').waitFor();
    await screenshot(page, 'import-result-1440');
    expect(await juneTitles()).toEqual(['Choir rehearsal', 'Spring concert']);
  });

  it('imports an .ics on a phone, and the Calendar screen shows every imported event', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Import another file' }).click();
    await page.getByTestId('import-file').setInputFiles(file('gala.ics', GALA_ICS, 'text/calendar'));
    await page.getByTestId('import-preview').waitFor();
    expect(await page.getByTestId('import-preview').getByTestId('count-create').innerText()).toBe(
      '2 to create',
    );
    await page.getByTestId('import-run').click();
    await page.getByTestId('import-result').waitFor();
    await page.getByTestId('import-result').scrollIntoViewIfNeeded();
    await noSidewaysScroll();
    await screenshot(page, 'import-result-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(await calendarJune()).toEqual([
      'Choir rehearsal',
      'Gala evening',
      'Open rehearsal',
      'Spring concert',
    ]);
  });

  it('previews the same .ics again as nothing to do: matched by UID, nothing duplicated', async () => {
    await nav('Import');
    await page.getByTestId('import-file').setInputFiles(file('gala.ics', GALA_ICS, 'text/calendar'));
    const preview = page.getByTestId('import-preview');
    await preview.waitFor();
    expect(await preview.getByTestId('count-unchanged').innerText()).toBe('2 unchanged');
    expect(await preview.getByTestId('count-create').innerText()).toBe('0 to create');
    await page.getByTestId('import-nothing').waitFor();
    expect(await page.getByTestId('import-run').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await juneTitles()).toEqual([
      'Choir rehearsal',
      'Gala evening',
      'Open rehearsal',
      'Spring concert',
    ]);
  });

  it('lists the imports and undoes one after a confirmation: its events go to the Trash', async () => {
    await nav('Import');
    const history = page.getByTestId('import-history');
    await history.getByRole('row').nth(2).waitFor();
    const rows = history.getByRole('row');
    // Newest first.
    expect(await rows.nth(1).innerText()).toMatch(
      /gala\.ics[\s\S]*2 created, 0 updated, 0 moved to the trash/,
    );
    expect(await rows.nth(2).innerText()).toContain('season.csv');
    await history.scrollIntoViewIfNeeded();
    await screenshot(page, 'import-history-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await history.scrollIntoViewIfNeeded();
    await noSidewaysScroll();
    await screenshot(page, 'import-history-390');
    await page.setViewportSize({ width: 1440, height: 900 });

    await rows.nth(1).getByRole('button', { name: 'Undo the import of gala.ics' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.innerText()).toContain('what it created goes to the trash');
    expect(await axeFindings(page)).toEqual([]);
    await dialog.getByTestId('confirm').click();
    expect(await dialog.getByTestId('undo-outcome').innerText()).toContain('2 moved to the trash');
    await dialog.getByTestId('undo-close').click();
    await expect.poll(() => rows.nth(1).getByTestId('history-undone').count()).toBe(1);

    expect(await calendarJune()).toEqual(['Choir rehearsal', 'Spring concert']);
    const trash = await trashTitles();
    expect(trash).toContain('Gala evening');
    expect(trash).toContain('Open rehearsal');
  });

  it('undoing the CSV keeps an event changed since, and says so', async () => {
    const list = await api<{ events: { id: number; title: string }[] }>(
      'cal/events/v1/events?start_date=2027-06-01&end_date=2027-06-30&status=any&search=Spring',
    );
    await api(`cal/events/v1/events/${list.events[0].id}`, 'POST', { title: 'Spring concert (sold out)' });
    await nav('Import');
    const history = page.getByTestId('import-history');
    await history.getByRole('button', { name: 'Undo the import of season.csv' }).click();
    await page.getByRole('dialog').getByTestId('confirm').click();
    const kept = page.getByRole('dialog').getByTestId('undo-kept');
    await kept.waitFor();
    expect(await kept.innerText()).toContain('Spring concert (sold out)');
    await page.getByRole('dialog').getByTestId('undo-close').click();
    expect(await calendarJune()).toEqual(['Spring concert (sold out)']);
    expect(await trashTitles()).toContain('Choir rehearsal');
    expect(signedIn.problems).toEqual([]);
  });
});

describe('Import screen, from an address', { timeout: 120_000 }, () => {
  it('adds an address, imports from it, and a refresh brings the changes and trashes what left it', async () => {
    await nav('Import');
    const sources = page.getByTestId('import-sources');
    await sources.getByTestId('source-url').fill(`${site.origin}${FEED}`);
    await sources.getByTestId('source-name').fill('Town hall calendar');
    // From the keyboard: Enter in the form adds the address.
    await sources.getByTestId('source-name').press('Enter');
    const source = sources.locator('li.source', { hasText: 'Town hall calendar' });
    const result = source.locator('[data-testid^="source-result-"]');
    await result.waitFor();
    expect(await result.getByTestId('count-create').innerText()).toBe('2 created');
    expect(await source.getByTestId('source-status').innerText()).toMatch(
      /^Last refreshed .* · 2 created, 0 updated, 0 moved to the trash$/,
    );
    expect(await juneTitles()).toEqual(expect.arrayContaining(['Choir picnic', 'Summer fair']));

    // The town hall renames the fair, drops the picnic and adds a concert.
    site.serve(FEED, {
      contentType: 'text/calendar; charset=utf-8',
      body: ics([
        { uid: 'fair@example.org', title: 'Summer fair and market', day: '20270620' },
        { uid: 'band@example.org', title: 'Band concert', day: '20270622' },
      ]),
    });
    await source.getByRole('button', { name: 'Refresh Town hall calendar' }).click();
    await expect.poll(() => result.getByTestId('count-create').innerText()).toBe('1 created');
    expect(await result.getByTestId('count-update').innerText()).toBe('1 updated');
    expect(await result.getByTestId('count-trash').innerText()).toBe('1 moved to the trash');
    // What left the feed comes first, as it needs attention.
    expect(await result.getByRole('row').nth(1).innerText()).toMatch(/Choir picnic\s+Moved to the trash/);
    await sources.scrollIntoViewIfNeeded();
    await screenshot(page, 'import-address-1440');
    expect(await axeFindings(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await result.scrollIntoViewIfNeeded();
    await noSidewaysScroll();
    await screenshot(page, 'import-address-390');
    await page.setViewportSize({ width: 1440, height: 900 });

    const titles = await juneTitles();
    expect(titles).toContain('Summer fair and market');
    expect(titles).toContain('Band concert');
    expect(titles).not.toContain('Choir picnic');
    expect(await trashTitles()).toContain('Choir picnic');
  });

  it('removes the address after a confirmation that says its events stay', async () => {
    await nav('Import');
    const source = page.getByTestId('import-sources').locator('li.source', { hasText: 'Town hall calendar' });
    await source.getByRole('button', { name: 'Remove Town hall calendar' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.innerText()).toContain('The events it brought stay in the calendar');
    await dialog.getByTestId('confirm').click();
    await source.waitFor({ state: 'detached' });
    expect(await juneTitles()).toContain('Band concert');
    expect(signedIn.problems).toEqual([]);
  });
});
