import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  axeFindings,
  calendarShown,
  screenshot,
  signIn,
  startApp,
  stopApp,
  type E2eApp,
  type SignedInBrowser,
} from './browser';

/** Settings, Calendar apps: the CalDAV address and a new application password that a calendar app signs in with. */
let app: E2eApp;
let signedIn: SignedInBrowser;
let page: Page;
let origin: string;
let problems: string[];

beforeAll(async () => {
  app = await startApp('caldav-e2e', ['--port', '0']);
  ({ origin } = app);
  signedIn = await signIn(app, {
    context: { viewport: { width: 1280, height: 900 } },
    timeout: 10_000,
    ready: calendarShown,
  });
  ({ page, problems } = signedIn);
}, 120_000);

afterAll(() => stopApp(app, signedIn));

describe('Settings, Calendar apps (CalDAV)', { timeout: 60_000 }, () => {
  it('shows the address and makes an application password that signs a CalDAV client in', async () => {
    await page.goto(`${origin}/#/settings`);
    const section = page.getByTestId('caldav-section');
    // Settings loads its sections' data after the screen opens: a busy CI machine may take a while.
    await section.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('caldav-address').textContent()).toBe(`${origin}/`);
    expect(await page.getByTestId('caldav-calendar').textContent()).toBe(
      `${origin}/dav/calendars/admin/events/`,
    );
    expect(await page.getByTestId('caldav-login').textContent()).toBe('admin');
    await page.getByLabel('What it is for').fill('Thunderbird');
    await page.getByTestId('make-app-password').click();
    const password = (await page.getByTestId('app-password-value').textContent())!.trim();
    expect(password.length).toBeGreaterThan(10);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'caldav-settings-1280');
    const answer = await fetch(`${origin}/dav/calendars/admin/events/`, {
      method: 'PROPFIND',
      headers: { Authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`, Depth: '0' },
    });
    expect(answer.status).toBe(207);
    await page.setViewportSize({ width: 390, height: 844 });
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'caldav-settings-390');
    expect(await axeFindings(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
