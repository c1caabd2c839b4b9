import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, signIn, startApp, stopApp, type E2eApp, type SignedInBrowser } from './browser';
import { makeCalendar, startRadicaleCalendar, type CaldavServer } from '../helpers/caldavServers';
import { DavCalendar } from '../../src/main/caldavSync/davCalendar';

/**
 * The Publish screen's "add a site" with a CalDAV calendar, in Chromium, against a real Radicale: the form asks
 * what the organisation has, finds the calendar from the server's address, asks which one when the account has
 * several, saves it, and "Publish now" sends the events there. Screenshots: test-results/e2e/caldav-remote-*.png.
 */
let app: E2eApp;
let signedIn: SignedInBrowser;
let page: Page;
let server: CaldavServer;
const day = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startRadicaleCalendar();
  await makeCalendar(server, `/${server.login}/board/`, 'Board');
  app = await startApp('caldav-remote-e2e', ['--port', '0']);
  for (const title of ['Spring concert', 'Choir rehearsal'])
    await fetch(`${app.origin}/wp-json/cal/events/v1/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${app.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title,
        status: 'publish',
        start_date: `${day} 18:00:00`,
        end_date: `${day} 20:00:00`,
      }),
    });
  signedIn = await signIn(app, { timeout: 15_000 });
  page = signedIn.page;
}, 180_000);

afterAll(async () => {
  await stopApp(app, signedIn);
  await server?.stop();
});

describe('a CalDAV calendar on the Publish screen', { timeout: 120_000 }, () => {
  it('is added from the server address, one calendar picked by name, and published to', async () => {
    await page.goto(`${app.origin}/#/sync?add=caldav`);
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('remote-kind-caldav').isChecked()).toBe(true);
    await dialog.getByLabel('Server or calendar address').fill(server.url);
    await dialog.getByLabel('User name').fill(server.login);
    await dialog.getByLabel('Password', { exact: true }).fill(server.password);
    await dialog.getByTestId('save-remote').click();
    // Two calendars on the account: the form asks which, under the Calendar field.
    await dialog.getByText(/has 2 calendars there \(“Board”, “Choir”\)/).waitFor();
    await screenshot(page, 'caldav-remote-which-calendar');
    await dialog.getByLabel('Calendar', { exact: true }).fill('Choir');
    await dialog.getByTestId('save-remote').click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('CalDAV calendar').first().waitFor();
    // Listed in the words of its kind: the calendar account's password, not a website's.
    const saved = page.locator('.remote-list .remote').first();
    expect(await saved.textContent()).toContain(
      `Password of the calendar account · ${server.login} · password saved`,
    );
    expect(await saved.textContent()).not.toContain('Website password');
    expect(await page.locator('p.muted').filter({ hasText: 'a CalDAV calendar (Nextcloud' }).count()).toBe(1);

    await page.getByTestId('run-sync').click();
    await page.getByTestId('sync-report').waitFor();
    expect(await page.getByTestId('summary-created').textContent()).toBe('2');
    expect(await page.getByTestId('summary-failed').textContent()).toBe('0');
    await screenshot(page, 'caldav-remote-published');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'caldav-remote-published-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    const choir = new DavCalendar(server.calendarUrl, {
      auth: { user: server.login, password: server.password },
    });
    expect((await choir.etags()).size).toBe(2);
    // The one refusal was the check asking which calendar (502: the other server's answer), nothing else.
    expect(signedIn.problems.filter((problem) => !/remotes\/check|status of 502/.test(problem))).toEqual([]);
  });
});
