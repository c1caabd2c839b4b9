import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
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
 * A crowded day of the month view (issue 27, speed): FullCalendar is given only the four events a day shows and
 * the app draws the day's "+N more" itself (see calendar/ownMoreLinks), but what the user sees is as before:
 * four events, one "+6 more" counting all ten, opened by click or keyboard into the popover listing all ten;
 * the week of that day draws all ten. `calendar-desk serve` (site zone Europe/Rome), Chromium at 1440 × 900.
 */
const ZONE = 'Europe/Rome';
let app: E2eApp;
let signedIn: SignedInBrowser;
let page: Page;
const day = DateTime.now().setZone(ZONE).startOf('month').plus({ months: 1, days: 9 }).toISODate()!;
/** A day (a week later) of six sections rehearsing at the same time: FullCalendar orders them by title. */
const sameTimeDay = DateTime.fromISO(day).plus({ days: 7 }).toISODate()!;
const SECTIONS = ['Viola', 'Alto', 'Cello', 'Bass', 'Flute', 'Drums'];
const pad = (n: number) => String(n).padStart(2, '0');

beforeAll(async () => {
  app = await startApp('month-more', ['--port', '0', '--timezone', ZONE]);
  const post = (title: string, start: string, end: string) =>
    callApi(app, `${EVENTS_API}/events`, {
      method: 'POST',
      json: { title, start_date: start, end_date: end, status: 'publish' },
    });
  for (let i = 0; i < 10; i += 1) {
    await post(`Rehearsal ${i + 1}`, `${day} ${pad(8 + i)}:00`, `${day} ${pad(8 + i)}:45`);
  }
  for (const section of SECTIONS) await post(section, `${sameTimeDay} 19:00`, `${sameTimeDay} 20:00`);
  signedIn = await signIn(app, { timeout: 10_000 });
  page = signedIn.page;
}, 120_000);
afterAll(() => stopApp(app, signedIn));

describe('a crowded day in the month view', { timeout: 60_000 }, () => {
  it('shows four events and "+6 more", whose popover lists all ten; the week shows all ten', async () => {
    await page.goto(`${app.origin}/#/calendar?view=dayGridMonth&date=${day}`);
    const cell = page.locator(`td.fc-daygrid-day[data-date="${day}"]`);
    const more = cell.locator('.fc-more-link');
    await expect.poll(() => more.textContent()).toBe('+6 more');
    expect(await more.getAttribute('title')).toBe('Show 6 more events');
    const visible = await cell
      .locator('.fc-daygrid-event-harness')
      .evaluateAll((harnesses) =>
        harnesses
          .filter((h) => (h as unknown as { style: { visibility: string } }).style.visibility !== 'hidden')
          .map((h) => h.textContent),
      );
    expect(visible).toEqual(['8:00Rehearsal 1', '9:00Rehearsal 2', '10:00Rehearsal 3', '11:00Rehearsal 4']);
    // FullCalendar was given those four only: the link is the app's, and the only one.
    expect(await cell.locator('.fc-daygrid-event-harness').count()).toBe(4);
    expect(await more.count()).toBe(1);
    // Placed where FullCalendar puts its own: below the fourth event, inside the cell.
    const [fourth, link, box] = await Promise.all([
      cell.locator('.fc-daygrid-event-harness').nth(3).boundingBox(),
      more.boundingBox(),
      cell.boundingBox(),
    ]);
    expect(link!.y).toBeGreaterThanOrEqual(fourth!.y + fourth!.height - 1);
    expect(link!.y + link!.height).toBeLessThanOrEqual(box!.y + box!.height);
    await screenshot(page, 'month-more-1440');

    await more.click();
    const popover = page.locator('.fc-more-popover');

    await expect.poll(() => popover.locator('.fc-event').count()).toBe(10);
    expect(await popover.locator('.fc-event-title').allTextContents()).toEqual(
      Array.from({ length: 10 }, (_, i) => `Rehearsal ${i + 1}`),
    );
    await screenshot(page, 'month-more-popover-1440');
    await page.keyboard.press('Escape');

    await page.goto(`${app.origin}/#/calendar?view=timeGridWeek&date=${day}`);
    await expect.poll(() => page.locator('.fc-timegrid-event').count()).toBe(10);
    // Back to the month (no new request needed): the day's share again, with its count.
    await page.locator('.fc-dayGridMonth-button').click();
    await expect.poll(() => more.textContent()).toBe('+6 more');
    expect(await more.count()).toBe(1);
    expect(signedIn.problems).toEqual([]);
  });

  it('opens the popover from the keyboard (Tab to "+6 more", then Enter)', async () => {
    await page.goto(`${app.origin}/#/calendar?view=dayGridMonth&date=${day}`);
    await page.reload();
    const cell = page.locator(`td.fc-daygrid-day[data-date="${day}"]`);
    const more = cell.locator('.fc-more-link');
    await expect.poll(() => more.textContent()).toBe('+6 more');
    expect(await cell.locator('.fc-daygrid-event-harness').count()).toBe(4);
    await more.focus();
    await page.keyboard.press('Enter');
    const popover = page.locator('.fc-more-popover');
    await expect.poll(() => popover.locator('.fc-event').count()).toBe(10);
    await page.keyboard.press('Escape');
    await expect.poll(() => popover.count()).toBe(0);
    expect(signedIn.problems).toEqual([]);
  });

  it('gives FullCalendar the four it shows of events at the same time, chosen by title as it orders them', async () => {
    await page.goto(`${app.origin}/#/calendar?view=dayGridMonth&date=${sameTimeDay}`);
    await page.reload();
    const cell = page.locator(`td.fc-daygrid-day[data-date="${sameTimeDay}"]`);
    const more = cell.locator('.fc-more-link');
    await expect.poll(() => more.textContent()).toBe('+2 more');
    expect(await more.count()).toBe(1);
    // Given those four only (no tie for it to choose from), in the order it draws them.
    expect(await cell.locator('.fc-daygrid-event-harness').count()).toBe(4);
    expect(await cell.locator('.fc-daygrid-event-harness .fc-event-title').allTextContents()).toEqual([
      'Alto',
      'Bass',
      'Cello',
      'Drums',
    ]);
    expect(signedIn.problems).toEqual([]);
  });
});
