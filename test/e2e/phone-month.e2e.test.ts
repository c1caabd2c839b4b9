import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import {
  axeFindings,
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
 * The calendar on a phone (390 × 844, an English interface on an American system, 12-hour clock): the month
 * shows a mark per event on each day and the chosen day's events as a list below it, instead of names broken
 * mid-word ("Choir rehea rsal"), times cut ("7:30 PI") and a Sunday column cut off; the week view keeps its
 * times whole. Nothing is cut: every text element's content fits its box (scrollWidth ≤ clientWidth).
 * `calendar-desk serve` (site zone Europe/Rome), Chromium.
 */
const ZONE = 'Europe/Rome';
let app: E2eApp;
let signedIn: SignedInBrowser;
let page: Page;

/** A month two months from now, its busy Tuesday and its Sunday. */
const month = DateTime.now().setZone(ZONE).startOf('month').plus({ months: 2 });
const busyDay = month.plus({ days: 14 }).set({ weekday: 2 }).toISODate()!;
const sunday = month.plus({ days: 14 }).set({ weekday: 7 }).toISODate()!;

const post = (path: string, json: Record<string, unknown>) =>
  callApi(app, `${EVENTS_API}/${path}`, { method: 'POST', json });

/**
 * Text elements of the calendar screen whose text is wider than their box (cut or spilling out); run in the
 * page (a script: these tests are type-checked without the DOM's types).
 */
const CLIPPED_TEXTS = `(() => {
  const screen = document.querySelector('.calendar-screen');
  const clipped = [];
  for (const element of screen.querySelectorAll('*')) {
    const ownText = [...element.childNodes].some(
      (node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim() !== '',
    );
    if (!ownText || element.offsetParent === null) continue;
    // The folded tools, and text only screen readers get (clipped on purpose).
    if (element.closest('.calendar-side, .sr-only')) continue;
    const name = element.className || element.tagName;
    if (element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).display !== 'inline') {
      clipped.push(name + ': "' + element.textContent.trim() + '"');
    }
    // An inline element has no scroll box: it is cut when it reaches past its block's box.
    const block = element.parentElement.closest('td, th, li, button, h2, a, div');
    if (block && element.getBoundingClientRect().right > block.getBoundingClientRect().right + 1) {
      clipped.push(name + ' past its box: "' + element.textContent.trim() + '"');
    }
  }
  return clipped;
})()`;

const clippedTexts = () => page.evaluate(CLIPPED_TEXTS) as Promise<string[]>;

/** The colour of the first mark of a day. */
const markColour = (day: string) =>
  page.evaluate(
    `getComputedStyle(document.querySelector('.fc-daygrid-day[data-date="${day}"] .phone-day-mark')).backgroundColor`,
  ) as Promise<string>;

/**
 * Each event time of the week (but those too narrow for any clock, which show the title alone): its clock
 * times as drawn, whether it fits its box, and on how many lines each clock time is.
 */
const WEEK_TIMES = `[...document.querySelectorAll('.fc-timegrid-event .fc-event-time')]
  .filter((element) => element.checkVisibility())
  .map((element) => {
    const clocks = [...element.querySelectorAll('.event-clock > span')].filter((clock) => clock.checkVisibility());
    return {
      text: clocks.map((clock) => clock.textContent).join(' - '),
      fits: element.scrollWidth <= element.clientWidth,
      widths: element.scrollWidth + ' > ' + element.clientWidth,
      // Each clock time ("7:30p") on one line: drawn in one box.
      lines: clocks.map((clock) => clock.getClientRects().length),
    };
  })`;

beforeAll(async () => {
  app = await startApp('phone-month', ['--port', '0', '--timezone', ZONE]);
  const concerts = await post('categories', { name: 'Concerts' });
  await post('events', {
    title: 'Christmas Concert',
    start_date: `${busyDay} 19:30`,
    end_date: `${busyDay} 21:30`,
    categories: [concerts.id],
  });
  await post('events', {
    title: 'Choir rehearsal',
    start_date: `${busyDay} 18:00`,
    end_date: `${busyDay} 19:15`,
  });
  for (const hour of [8, 9, 10, 11, 12, 13]) {
    await post('events', {
      title: `Stage setup ${hour}`,
      start_date: `${busyDay} ${hour}:00`,
      end_date: `${busyDay} ${hour}:45`,
    });
  }
  await post('events', {
    title: 'Sunday matinee',
    start_date: `${sunday} 16:00`,
    end_date: `${sunday} 18:00`,
    categories: [concerts.id],
  });
  signedIn = await signIn(app, {
    context: { locale: 'en-US', viewport: { width: 390, height: 844 } },
    timeout: 15_000,
  });
  page = signedIn.page;
}, 120_000);

afterAll(() => stopApp(app, signedIn));

const cell = (day: string) => page.locator(`.fc-daygrid-day[data-date="${day}"]`);

describe('the calendar on a phone', { timeout: 90_000 }, () => {
  it('month: marks in category colours per day, a tapped day listed below with whole names and times, nothing cut', async () => {
    await page.goto(`${app.origin}/#/calendar?view=dayGridMonth&date=${busyDay}`);
    await cell(busyDay).locator('.phone-day-mark').first().waitFor();
    await screenshot(page, 'phone-month-390');
    // No names in the grid: marks, four at most and a plus for more, the concert's in its category colour.
    expect(await page.locator('.fc-daygrid-event:visible').count()).toBe(0);
    expect(await cell(busyDay).locator('.phone-day-mark').count()).toBe(4);
    expect(await cell(busyDay).locator('.phone-day-more').count()).toBe(1);
    expect(await cell(busyDay).locator('.sr-only').textContent()).toBe('8 events');
    expect(await cell(sunday).locator('.phone-day-mark').count()).toBe(1);
    // Sunday's concert in its category's colour, the uncategorised events in the accent colour.
    expect(await markColour(sunday)).not.toBe(await markColour(busyDay));
    // The whole week fits: Sunday's column ends inside the window.
    const sundayBox = (await cell(sunday).boundingBox())!;
    expect(sundayBox.x + sundayBox.width).toBeLessThanOrEqual(390);

    await cell(busyDay).click();
    const list = page.getByTestId('day-list');
    await list.getByText('Christmas Concert').waitFor();
    await list.scrollIntoViewIfNeeded();
    await screenshot(page, 'phone-month-390-day');
    const heading = DateTime.fromISO(busyDay).setLocale('en-US').toLocaleString(DateTime.DATE_HUGE);
    expect(await list.getByRole('heading').textContent()).toBe(heading);
    const rows = await list
      .locator('li')
      .evaluateAll((items) =>
        items.map((item) => [...item.querySelectorAll('span')].map((part) => part.textContent).join(' ')),
      );
    expect(rows).toHaveLength(8);
    expect(rows.map((row) => row.replace(/\s+/g, ' ').trim())).toContain(
      '7:30 PM – 9:30 PM Christmas Concert',
    );
    expect(rows.map((row) => row.replace(/\s+/g, ' ').trim())).toContain('6:00 PM – 7:15 PM Choir rehearsal');
    expect(await clippedTexts()).toEqual([]);
    const [scrollWidth, clientWidth] = (await page.evaluate(
      '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
    )) as number[];
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    expect(await axeFindings(page)).toEqual([]);

    // An event of the list opens its quick view.
    await list.getByRole('button', { name: /Christmas Concert/ }).click();
    const quick = page.getByTestId('quick-view');
    await quick.waitFor();
    expect(await page.getByRole('dialog').getByRole('heading').first().textContent()).toContain(
      'Christmas Concert',
    );
    await page.keyboard.press('Escape');
    await quick.waitFor({ state: 'hidden' });

    // Another day: its events, or that there are none.
    await cell(sunday).click();
    await list.getByText('Sunday matinee').waitFor();
    expect(await list.locator('li').count()).toBe(1);
    expect(signedIn.problems).toEqual([]);
  });

  it('week: whole times, nothing cut', async () => {
    await page.goto(`${app.origin}/#/calendar?view=timeGridWeek&date=${busyDay}`);
    const concert = page.locator('.fc-timegrid-event', { hasText: 'Christmas Concert' });
    await concert.waitFor();
    await concert.scrollIntoViewIfNeeded();
    await screenshot(page, 'phone-week-390');
    const times = (await page.evaluate(WEEK_TIMES)) as Array<{
      text: string;
      fits: boolean;
      widths: string;
      lines: number[];
    }>;
    expect(times.map((time) => time.text)).toContain('7:30p - 9:30p');
    expect(times.map((time) => time.text)).toContain('6p - 7:15p');
    for (const time of times) {
      expect(time.fits, `${time.text}: ${time.widths}`).toBe(true);
      expect(
        time.lines.every((lines) => lines === 1),
        time.text!,
      ).toBe(true);
    }
    expect(await clippedTexts()).toEqual([]);
    expect(await axeFindings(page)).toEqual([]);
    expect(signedIn.problems).toEqual([]);
  });
});
