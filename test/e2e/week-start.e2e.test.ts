import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { callApi, screenshot, signIn, startApp, stopApp, type E2eApp, type SignedInBrowser } from './browser';

/**
 * Weeks start where the system's region starts them: Sunday for a browser in American English (the month of
 * November 2026 then runs from Sunday 1 November to Saturday 12 December), Monday in British English (the other
 * e2e files). `calendar-desk serve`, Chromium at 1440 × 900 with the locale en-US.
 */
let app: E2eApp;
let signedIn: SignedInBrowser;
let page: Page;

beforeAll(async () => {
  app = await startApp('week-start', ['--port', '0', '--timezone', 'America/New_York']);
  // On the last Saturday of the Sunday-first grid: a Monday-first grid ends on Sunday 6 December.
  await callApi(app, 'cal/events/v1/events', {
    method: 'POST',
    json: {
      title: 'Winter concert',
      start_date: '2026-12-12 19:00',
      end_date: '2026-12-12 21:00',
      status: 'publish',
    },
  });
  signedIn = await signIn(app, { timeout: 10_000, context: { locale: 'en-US' } });
  page = signedIn.page;
}, 120_000);
afterAll(() => stopApp(app, signedIn));

describe('the first day of the week', { timeout: 60_000 }, () => {
  it('is Sunday in American English: the month, its events and the small month follow it', async () => {
    await page.goto(`${app.origin}/#/calendar?view=dayGridMonth&date=2026-11-15`);
    await page.reload();
    await page.locator('.fc-daygrid-day').first().waitFor();
    expect(await page.locator('.fc-col-header-cell').first().textContent()).toBe('Sun');
    expect(await page.locator('.fc-daygrid-day').first().getAttribute('data-date')).toBe('2026-11-01');
    expect(await page.locator('.fc-daygrid-day').last().getAttribute('data-date')).toBe('2026-12-12');
    // The event on the grid's last Saturday is drawn (the first load asked for the Sunday-first weeks).
    await expect
      .poll(() => page.locator('td[data-date="2026-12-12"] .fc-event-title').allTextContents())
      .toEqual(['Winter concert']);
    // The small month beside it: Sunday first too.
    const miniMonth = page.locator('.mini-month');
    expect(await miniMonth.locator('th').first().textContent()).toBe('S');
    await screenshot(page, 'week-start-en-us-1440');
    expect(signedIn.problems).toEqual([]);
  });

  it("is Sunday in the repeat editor's day boxes too", async () => {
    await page.goto(`${app.origin}/#/events/new`);
    await page.getByRole('heading', { name: 'New event' }).waitFor();
    await page.getByTestId('repeat-frequency').selectOption('weekly');
    const boxes = page.locator('.repeat-days input');
    await boxes.first().waitFor();
    const days = await boxes.evaluateAll((inputs) =>
      inputs.map((input) => input.getAttribute('data-testid')),
    );
    expect(days).toEqual(['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'].map((day) => `repeat-day-${day}`));
    expect((await page.locator('.repeat-day').first().innerText()).trim()).toMatch(/^Sun/);
    await page.locator('.repeat-days').scrollIntoViewIfNeeded();
    await screenshot(page, 'week-start-repeat-en-us-1440');
    expect(signedIn.problems).toEqual([]);
  });
});
