import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { Locator, Page } from 'playwright-core';
import {
  axeFindings,
  calendarShown,
  callApi,
  EVENTS_API,
  screenshot,
  signIn,
  startApp,
  stopApp,
  type E2eApp,
  type SignedInBrowser,
} from './browser';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Every screen at 1440, 800 and 390 px: axe-core finds no serious or critical accessibility violation, and
 * nothing scrolls sideways; the Publish screen in each of its states too (a second Calendar Desk as the site).
 * Screenshots land in test-results/e2e/screens-*.png and publish-*.png, to be looked at.
 */
/*
 * The page.evaluate callbacks below run in the browser. This file is type-checked without the DOM library
 * (tsconfig.node.json), so the few browser globals they use are declared here, as loosely as they are used.
 */
interface PageElement {
  tagName: string;
  id: string;
  classList: Iterable<string>;
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  value: string;
  parentElement: PageElement | null;
  closest(selector: string): PageElement | null;
  querySelector(selector: string): PageElement | null;
  getBoundingClientRect(): { left: number; right: number; width: number; height: number };
}
declare const document: {
  documentElement: PageElement;
  activeElement: PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
};
declare const localStorage: {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
};
declare function getComputedStyle(element: unknown): {
  overflowX: string;
  outlineStyle: string;
  outlineWidth: string;
};

const ZONE = 'Europe/Rome';
const WIDTHS = [1440, 800, 390];

let app: E2eApp;
let signedIn: SignedInBrowser;
let page: Page;
let problems: string[];
let origin: string;
let token: string;
let eventId: number;
/** The first event of a monthly series: its editor shows the Repeat control with every part open. */
let seriesId: number;

const post = (path: string, json: unknown) => callApi(app, `${EVENTS_API}/${path}`, { method: 'POST', json });

/** axe-core's serious and critical findings on the page as it is now. */
const seriousViolations = () => axeFindings(page);

/**
 * What scrolls sideways: the page itself, or any box that scrolls horizontally (the app's content area has
 * `overflow: auto`, so a too-wide table would scroll there rather than the page). Code examples may scroll.
 */
async function horizontalOverflow(): Promise<string[]> {
  return page.evaluate(() => {
    const describe = (element: PageElement) =>
      `${element.tagName.toLowerCase()}.${[...element.classList].join('.')}`;
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) found.push(`the page (${root.scrollWidth} px)`);
    for (const element of document.querySelectorAll('body *')) {
      if (element.tagName === 'PRE' || element.scrollWidth <= element.clientWidth + 1) continue;
      const overflowX = getComputedStyle(element).overflowX;
      if (overflowX === 'auto' || overflowX === 'scroll') {
        found.push(`${describe(element)} scrolls (${element.scrollWidth} > ${element.clientWidth} px)`);
      }
    }
    return found;
  });
}

/**
 * What sticks out of the card or dialog it is drawn in, on the screen `scope` (a box may overhang its card's
 * padding without making anything scroll: the eye still sees it cut or spilling over the border).
 */
async function outsideTheirBox(scope: string): Promise<string[]> {
  return page.evaluate((scopeSelector) => {
    const describe = (element: PageElement) =>
      `${element.tagName.toLowerCase()}${[...element.classList].map((name) => `.${name}`).join('')}`;
    const found: string[] = [];
    for (const element of document.querySelectorAll(`${scopeSelector} *`)) {
      const box = element.parentElement?.closest('.card, dialog');
      const rect = element.getBoundingClientRect();
      if (!box || rect.width === 0 || rect.height === 0) continue;
      const edges = box.getBoundingClientRect();
      const span = (from: { left: number; right: number }) =>
        `${Math.round(from.left)}–${Math.round(from.right)} px`;
      if (rect.left < edges.left - 1 || rect.right > edges.right + 1)
        found.push(`${describe(element)} (${span(rect)}) sticks out of ${describe(box)} (${span(edges)})`);
    }
    return found;
  }, scope);
}

const SCREENS: { name: string; path: string; ready: () => Promise<unknown> }[] = [
  {
    name: 'calendar-month',
    path: '/#/calendar',
    // A phone's month marks its days instead (test/e2e/phone-month.e2e.test.ts).
    ready: () => page.locator('.fc-daygrid-event, .phone-day-mark').first().waitFor(),
  },
  { name: 'events', path: '/#/events', ready: () => page.getByTestId('event-search').waitFor() },
  { name: 'event-new', path: '/#/events/new', ready: () => page.locator('#event-title').waitFor() },
  {
    name: 'event-edit',
    path: '/#/events/{id}',
    ready: () => page.locator('.rich-text-body').waitFor(),
  },
  {
    name: 'event-series',
    path: '/#/events/{series}',
    // In sight for the screenshot (axe and the overflow check look at the whole page either way).
    ready: () => page.getByTestId('repeat-until').scrollIntoViewIfNeeded(),
  },
  { name: 'venues', path: '/#/venues', ready: () => page.getByRole('table').waitFor() },
  { name: 'organizers', path: '/#/organizers', ready: () => page.getByRole('table').waitFor() },
  { name: 'categories', path: '/#/categories', ready: () => page.getByRole('table').waitFor() },
  { name: 'tags', path: '/#/tags', ready: () => page.getByRole('table').waitFor() },
  {
    name: 'trash',
    path: '/#/trash',
    ready: () => page.getByText('Cancelled sectional rehearsal').waitFor(),
  },
  {
    name: 'sync',
    path: '/#/sync',
    // Not its Add button, which shows while the sites still load: the empty state (no site is saved yet when
    // these sweeps run), or the list of sites. Its other states are checked one by one further down.
    ready: () =>
      page
        .getByRole('heading', { name: 'No site yet' })
        .or(page.getByRole('radiogroup', { name: 'Your sites' }))
        .waitFor(),
  },
  { name: 'settings', path: '/#/settings', ready: () => page.getByTestId('ui-language').waitFor() },
  {
    name: 'import',
    path: '/#/import',
    // Its history and addresses loaded (none yet); its states are checked in import.e2e.test.ts.
    ready: () =>
      Promise.all([
        page.getByText('No address yet.').waitFor(),
        page.getByText('Nothing imported yet.').waitFor(),
      ]),
  },
];

beforeAll(async () => {
  app = await startApp('screens', ['--port', '0', '--timezone', ZONE]);
  ({ origin, token } = app);
  // A calendar with something on every screen: a venue, an organizer, categories, a tag, events this month.
  const venue = await post('venues', { venue: 'Teatro Verdi', city: 'Trieste' });
  const organizer = await post('organizers', { organizer: 'Anna Rossi', email: 'anna@example.org' });
  const categories = [];
  for (const name of ['Concerts', 'Rehearsals', 'Workshops'])
    categories.push(await post('categories', { name }));
  await post('tags', { name: 'outdoor' });
  const month = DateTime.now().setZone(ZONE).startOf('month');
  for (let day = 0; day < 12; day += 1) {
    const start = month.plus({ days: day * 2, hours: 18 });
    const created = await post('events', {
      title: `Season concert ${day + 1} with a rather long title`,
      start_date: start.toFormat('yyyy-MM-dd HH:mm:ss'),
      end_date: start.plus({ hours: 2 }).toFormat('yyyy-MM-dd HH:mm:ss'),
      venue: venue.id,
      organizer: [organizer.id],
      categories: [categories[day % 3].id],
      description: '<p>Works by <strong>Verdi</strong>.</p>',
      status: day % 4 === 0 ? 'draft' : 'publish',
    });
    eventId ??= created.id;
  }
  // A series: monthly on the start's weekday (the 2nd Tuesday, say), until a date.
  const seriesStart = month.plus({ days: 8, hours: 10 });
  const weekday = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'][seriesStart.weekday - 1];
  const until = seriesStart.plus({ months: 5 }).toFormat("yyyyMMdd'T'120000'Z'");
  seriesId = (
    await post('events', {
      title: 'Sectional rehearsal on the second weekday of the month',
      start_date: seriesStart.toFormat('yyyy-MM-dd HH:mm:ss'),
      end_date: seriesStart.plus({ hours: 2 }).toFormat('yyyy-MM-dd HH:mm:ss'),
      recurrence: [`RRULE:FREQ=MONTHLY;UNTIL=${until};BYDAY=2${weekday}`],
    })
  ).id;
  // And one in the trash, so the Trash screen lists something to restore.
  const trashed = await post('events', {
    title: 'Cancelled sectional rehearsal',
    start_date: month.plus({ days: 3, hours: 10 }).toFormat('yyyy-MM-dd HH:mm:ss'),
    end_date: month.plus({ days: 3, hours: 11 }).toFormat('yyyy-MM-dd HH:mm:ss'),
  });
  const deleted = await fetch(`${origin}/wp-json/cal/events/v1/events/${trashed.id}`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(deleted.status).toBe(200);
  signedIn = await signIn(app, { timeout: 10_000, ready: calendarShown });
  ({ page, problems } = signedIn);
}, 120_000);

afterAll(() => stopApp(app, signedIn));

describe.each(WIDTHS)('every screen at %i px', { timeout: 120_000 }, (width) => {
  it('has no serious accessibility violation and does not scroll sideways', async () => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    const found: string[] = [];
    for (const screen of SCREENS) {
      const path = screen.path.replace('{id}', String(eventId)).replace('{series}', String(seriesId));
      await page.goto(`${origin}${path}`);
      await screen.ready();
      // Let fonts, the calendar's layout and lazy chunks settle before judging.
      await page.waitForLoadState('networkidle');
      await screenshot(page, `screens-${width}-${screen.name}`);
      for (const violation of await seriousViolations()) found.push(`${screen.name}: ${violation}`);
      for (const element of await horizontalOverflow())
        found.push(`${screen.name}: wider than ${width} px: ${element}`);
    }
    expect(found).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe('the dark theme', { timeout: 120_000 }, () => {
  it('has no serious accessibility violation on any screen either', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${origin}/#/settings`);
    await page.getByTestId('ui-theme').selectOption('dark');
    const found: string[] = [];
    for (const screen of SCREENS) {
      const path = screen.path.replace('{id}', String(eventId)).replace('{series}', String(seriesId));
      await page.goto(`${origin}${path}`);
      await screen.ready();
      await page.waitForLoadState('networkidle');
      await screenshot(page, `screens-dark-${screen.name}`);
      for (const violation of await seriousViolations()) found.push(`${screen.name}: ${violation}`);
    }
    await page.goto(`${origin}/#/settings`);
    await page.getByTestId('ui-theme').selectOption('light');
    expect(found).toEqual([]);
  });
});

describe('small windows and the keyboard', { timeout: 60_000 }, () => {
  it('at 390 px the navigation is a menu, and the editor keeps Save in sight', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${origin}/#/calendar`);
    await page.locator('.phone-day-mark').first().waitFor();
    const venuesLink = page.getByRole('navigation').getByRole('link', { name: 'Venues', exact: true });
    expect(await venuesLink.isVisible()).toBe(false);
    const toggle = page.getByTestId('menu-toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await venuesLink.click();
    await page.getByRole('heading', { name: 'Venues' }).waitFor();
    // Choosing a screen folds the menu again.
    expect(await venuesLink.isVisible()).toBe(false);
    await screenshot(page, 'screens-390-menu-closed-venues');

    await page.goto(`${origin}/#/events/${eventId}`);
    await page.locator('.rich-text-body').waitFor();
    await page.locator('#main-content').evaluate((main) => main.scrollTo(0, main.scrollHeight));
    const save = await page.getByTestId('save-event').boundingBox();
    expect(save).not.toBeNull();
    expect(save!.y).toBeGreaterThanOrEqual(0);
    expect(save!.y + save!.height).toBeLessThanOrEqual(844);
    await screenshot(page, 'screens-390-editor-scrolled');
  });

  it('offers a skip link first, shows the focus on the calendar toolbar, and dialogs start at their first field', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${origin}/#/calendar`);
    await page.reload();
    await page.locator('.fc-daygrid-event').first().waitFor();
    await page.keyboard.press('Tab');
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    expect(await focused()).toBe('Skip to content');
    expect(await page.getByText('Skip to content').isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');

    // The calendar's arrows show a focus ring (FullCalendar's own style removes it). Checked once the screen
    // has settled: the filters' lists load after the first events are drawn, and a busy machine may still be
    // drawing them.
    await page.waitForLoadState('networkidle');
    await page.locator('.fc-prev-button').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const outline = await page
      .locator('.fc-prev-button')
      .evaluate(
        (button) => getComputedStyle(button).outlineStyle + ' ' + getComputedStyle(button).outlineWidth,
      );
    expect(outline).toBe('solid 2px');

    await page.goto(`${origin}/#/venues`);
    await page.getByTestId('new-record').click();
    await page.getByRole('dialog').waitFor();
    expect(
      await page.evaluate(
        () => document.activeElement?.closest('.field')?.querySelector('label')?.textContent,
      ),
    ).toContain('Name');
    await page.keyboard.press('Escape');
  });
});

describe('dates, times and time zones follow the interface language', { timeout: 60_000 }, () => {
  const setLanguage = async (language: string) => {
    await page.evaluate((value) => {
      const saved = JSON.parse(localStorage.getItem('calendar-desk.preferences') ?? '{}') as object;
      localStorage.setItem('calendar-desk.preferences', JSON.stringify({ ...saved, language: value }));
    }, language);
    await page.reload();
  };
  const first = DateTime.now().setZone(ZONE).startOf('month');

  it('writes 24-hour times and day-first dates in Italian and Polish, and English without 12/8', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${origin}/#/events`);
    await setLanguage('it');
    await page.getByTestId('event-search').waitFor();
    // The list starts at today; this month's concerts may all be past.
    await page.getByTestId('search-from').fill('');
    const firstRow = page.getByRole('row').nth(1);
    await expect.poll(() => firstRow.textContent()).toContain('18:00');
    expect(await firstRow.textContent()).not.toMatch(/PM|AM/);

    await page.goto(`${origin}/#/events/${eventId}`);
    await page.locator('.rich-text-body').waitFor();
    expect(await page.locator('#event-start-date').inputValue()).toBe(first.toFormat('dd/MM/yyyy'));
    expect(await page.getByTestId('start-time').inputValue()).toBe('18:00');
    // Typed the Italian way, the date is understood and kept (the model is ISO underneath).
    await page.locator('#event-start-date').fill('3/2/2027');
    await page.locator('#event-start-date').blur();
    expect(await page.locator('#event-start-date').inputValue()).toBe('03/02/2027');
    await screenshot(page, 'locale-it-editor');

    await setLanguage('pl');
    await page.locator('.rich-text-body').waitFor();
    expect(await page.getByTestId('start-time').inputValue()).toBe('18:00');
    expect(await page.locator('#event-start-date').inputValue()).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);

    // English, in a British browser: the week's headers read "Mon 2/11", not the American "Mon 11/2".
    await page.goto(`${origin}/#/calendar`);
    await setLanguage('en');
    await page.locator('.fc').waitFor();
    await page.keyboard.press('w');
    await page.locator('.fc-timeGridWeek-view').waitFor();
    const monday = DateTime.now().setZone(ZONE).startOf('week');
    const header = await page.locator('.fc-col-header-cell').first().textContent();
    expect(header).toBe(`Mon ${monday.day}/${monday.month}`);
    expect(await page.locator('.fc-timegrid-slot-label').filter({ hasText: '18:00' }).count()).toBe(1);
    await screenshot(page, 'locale-en-gb-week');
    await page.keyboard.press('m');
  });

  it('offers the time zones under current names, grouped by region, with a search', async () => {
    await page.goto(`${origin}/#/settings`);
    await page.locator('#site-timezone').waitFor();
    const options = await page
      .locator('#site-timezone option')
      .evaluateAll((list) => list.map((option) => (option as unknown as PageElement).value));
    expect(options).toContain('Asia/Kolkata');
    expect(options).toContain('Europe/Kyiv');
    expect(options).not.toContain('Asia/Calcutta');
    expect(options).not.toContain('Europe/Kiev');
    expect(
      await page.locator('#site-timezone optgroup[label="Europe"] option[value="Europe/Rome"]').count(),
    ).toBe(1);
    await page.getByRole('searchbox', { name: 'Search time zones (city or region)' }).fill('buenos');
    const found = await page
      .locator('#site-timezone option')
      .evaluateAll((list) => list.map((option) => (option as unknown as PageElement).value));
    // What matches, and the zone chosen now (a select must show its value).
    expect(found.sort()).toEqual(['America/Argentina/Buenos_Aires', ZONE].sort());
  });
});

describe('words a volunteer understands', { timeout: 60_000 }, () => {
  it('puts the user settings first and the API under "Connect other programs", where a browser learns how to print the token', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${origin}/#/settings`);
    await page.getByTestId('ui-language').waitFor();
    const headings = await page.locator('.settings-screen h2').allTextContents();
    expect(headings[0]).toBe('Appearance');
    expect(headings.at(-1)).toBe('Connect other programs');
    const developers = page.getByTestId('developers');
    expect(await page.getByTestId('api-token-command').isVisible()).toBe(false);
    await developers.locator('summary').click();
    // Signed in by its session cookie, the page never holds the token: it names the command that prints it.
    expect(await page.getByTestId('api-token-command').textContent()).toContain('calendar-desk token');
    expect(await page.getByTestId('curl-example').textContent()).not.toContain(token.slice(8));
    expect(await page.getByTestId('curl-example').textContent()).toContain('$TOKEN');
    expect(await horizontalOverflow()).toEqual([]);
    await screenshot(page, 'words-390-settings-developers');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('says next to the Name field that a term with this name exists, and words coordinates without geo_lat', async () => {
    await page.goto(`${origin}/#/categories`);
    await page.getByTestId('new-record').click();
    await page.getByRole('dialog').getByLabel('Name', { exact: true }).fill('Concerts');
    await page.getByTestId('save-record').click();
    const nameError = page.getByRole('dialog').locator('.field-error');
    await nameError.waitFor();
    expect(await nameError.textContent()).toContain('A term with this name already exists');
    await page.keyboard.press('Escape');

    await page.goto(`${origin}/#/venues`);
    await page.getByTestId('new-record').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill('Parish hall');
    await dialog.getByLabel('Latitude', { exact: true }).fill('123');
    await page.getByTestId('save-record').click();
    await dialog.locator('.field-error').first().waitFor();
    const shown = await dialog.textContent();
    expect(shown).not.toMatch(/geo_lat|geo_lng/);
    expect(shown).toContain('Enter a latitude between -90 and 90');
    await screenshot(page, 'words-venue-coordinates');
    await page.keyboard.press('Escape');
  });

  it('checks a site when it is added, and says in words what is wrong, next to the address', async () => {
    await page.goto(`${origin}/#/sync`);
    await page.getByTestId('new-remote').click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).not.toMatch(/Namespace|REST address/);
    await page.locator('#remote-name').fill('Old site');
    // A port that was free a moment ago: nothing answers there.
    const closed = createServer();
    await new Promise<void>((listening) => closed.listen(0, '127.0.0.1', listening));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    await page.locator('#remote-root').fill(`http://127.0.0.1:${port}/`);
    await page.locator('#remote-auth').selectOption('none');
    await page.getByTestId('save-remote').click();
    const rootError = dialog.locator('.field-error');
    await rootError.waitFor();
    expect(await rootError.textContent()).toMatch(
      /This site cannot be reached: nothing answers at this address/,
    );
    expect(await dialog.textContent()).not.toMatch(/ECONNREFUSED|ENOTFOUND/);
    await screenshot(page, 'words-publish-unreachable');
    await page.keyboard.press('Escape');
  });
});

describe('notices', { timeout: 60_000 }, () => {
  it('float over the title row, never over the list, the calendar or a form, one confirmation at a time', async () => {
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.goto(`${origin}/#/tags`);
      for (const name of [`first-${width}`, `second-${width}`]) {
        await page.getByTestId('new-record').click();
        await page.getByRole('dialog').getByLabel('Name', { exact: true }).fill(name);
        await page.getByTestId('save-record').click();
        await page.getByText(`“${name}” saved.`).waitFor();
      }
      expect(await page.locator('.notice').count()).toBe(1);
      const notice = (await page.locator('.notice').boundingBox())!;
      // The screen's own content (the search field and the list below it) starts below the notice.
      const search = (await page.getByRole('searchbox').first().boundingBox())!;
      expect(notice.y + notice.height).toBeLessThanOrEqual(search.y);
      // The button that opens a new record stays free.
      const add = (await page.getByTestId('new-record').boundingBox())!;
      const overlaps =
        notice.x < add.x + add.width &&
        add.x < notice.x + notice.width &&
        notice.y < add.y + add.height &&
        add.y < notice.y + notice.height;
      expect(overlaps).toBe(false);
      await screenshot(page, `notices-${width}`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});

describe('the Publish screen in each of its states', { timeout: 120_000 }, () => {
  let remote: TestServer;
  const LONG_TITLE_HERE =
    'Season concert 1 with a rather long title: the Requiem, moved to the cathedral (the theatre is closed)';
  const LONG_TITLE_THERE =
    'Season concert 1 with a rather long title: Verdi’s Requiem with the children’s choir, edited there';
  // Field values with nowhere to break a line: web addresses.
  const LONG_WEBSITE_HERE = `https://example.org/${'season-2026-2027-concert-tickets-'.repeat(4)}here`;
  const LONG_WEBSITE_THERE = `https://example.org/${'season-2026-2027-concert-tickets-'.repeat(4)}there`;

  beforeAll(async () => {
    remote = await startTestServer();
    // Judged from here on: the unreachable site above answered 502 on purpose.
    problems.length = 0;
  });
  afterAll(async () => {
    await remote?.close();
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  /**
   * The Publish screen as it is now, at each of the widths: axe's serious findings, and anything that scrolls
   * sideways or sticks out of its card or dialog. `shown` is scrolled into view for the screenshots
   * (test-results/e2e/publish-<width>-<state>.png).
   */
  async function problemsOf(state: string, shown?: Locator): Promise<string[]> {
    const found: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.waitForLoadState('networkidle');
      await shown?.scrollIntoViewIfNeeded();
      await screenshot(page, `publish-${width}-${state}`);
      for (const violation of await seriousViolations()) found.push(`${state} at ${width} px: ${violation}`);
      for (const element of [...(await horizontalOverflow()), ...(await outsideTheirBox('.sync-screen'))])
        found.push(`${state} at ${width} px: ${element}`);
    }
    return found;
  }

  it('the form to add a site, then the saved site', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${origin}/#/sync`);
    await page.getByRole('heading', { name: 'No site yet' }).waitFor();
    await page.getByTestId('new-remote').click();
    await page
      .locator('#remote-name')
      .fill('Choir of Santa Maria Maggiore, the public website of the season');
    await page.locator('#remote-root').fill(remote.engine.apiRoot);
    await page.locator('#remote-auth').selectOption('token');
    await page.locator('#remote-secret').fill(remote.engine.adminToken);
    const found = await problemsOf('add-form', page.getByRole('dialog'));

    await page.getByTestId('save-remote').click();
    await page.getByRole('radiogroup', { name: 'Your sites' }).waitFor();
    found.push(...(await problemsOf('saved-site')));
    expect(found).toEqual([]);
  });

  it('the preview, then the report of a sync', async () => {
    await page.getByTestId('dry-run').click();
    const plan = page.getByTestId('sync-plan');
    await expect.poll(() => plan.textContent()).toContain('Season concert 1 with a rather long title');
    const found = await problemsOf('preview', plan);

    await page.getByTestId('run-sync').click();
    await page.getByTestId('sync-report').waitFor();
    expect(await page.getByTestId('summary-failed').textContent()).toBe('0');
    found.push(...(await problemsOf('report', page.getByTestId('sync-report'))));
    expect(found).toEqual([]);
  });

  it('a conflict with long titles and long values, in the preview and in the report', async () => {
    // The same concert changed here and on the other Calendar Desk since the sync.
    const month = DateTime.now().setZone(ZONE).startOf('month');
    // That concert is a draft (published as one), listed to an administrator only.
    const listed = await remote.api(
      `events?start_date=${month.toISODate()}&end_date=${month.endOf('month').toISODate()}&status=draft`,
      { auth: remote.admin },
    );
    const there = (listed.body.events as { id: number; title: string }[]).find(
      (event) => event.title === 'Season concert 1 with a rather long title',
    );
    expect(there).toBeDefined();
    const here = await fetch(`${origin}/wp-json/cal/events/v1/events/${eventId}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: LONG_TITLE_HERE, website: LONG_WEBSITE_HERE }),
    });
    expect(here.status).toBe(200);
    const edited = await remote.api(`events/${there!.id}`, {
      method: 'PATCH',
      auth: remote.admin,
      json: { title: LONG_TITLE_THERE, website: LONG_WEBSITE_THERE },
    });
    expect(edited.status).toBe(200);

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('dry-run').click();
    const conflicts = page.getByTestId('sync-conflicts');
    await expect.poll(() => conflicts.textContent()).toContain(LONG_WEBSITE_THERE);
    expect(await conflicts.textContent()).toContain(LONG_TITLE_HERE);
    const found = await problemsOf('preview-conflict', conflicts);

    // Published with the decision left open: the report, and the conflict still asked.
    await page.getByTestId('run-sync').click();
    await expect.poll(() => page.getByTestId('summary-conflicts').textContent()).toBe('1');
    await conflicts.waitFor();
    found.push(...(await problemsOf('report-conflict', conflicts)));
    expect(found).toEqual([]);
  });

  it('the dialogs to edit and to remove the site', async () => {
    const site = page.getByRole('radiogroup', { name: 'Your sites' });
    await site.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('dialog', { name: 'Edit site' }).waitFor();
    const found = await problemsOf('edit-form', page.getByRole('dialog'));
    await page.keyboard.press('Escape');

    await site.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Remove this site?' }).waitFor();
    found.push(...(await problemsOf('remove-dialog', page.getByRole('dialog'))));
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(found).toEqual([]);
    expect(problems).toEqual([]);
  });
});
