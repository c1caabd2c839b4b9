import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, startServe, type ServeProcess } from '../cli/cliProcess';
import { axeFindings, freshSignInLink, launchChromium, screenshot, watchProblems } from './browser';

/** Settings, Calendar apps: the CalDAV address and a new application password that a calendar app signs in with. */
let home: string;
let serve: ServeProcess;
let browser: Browser;
let page: Page;
let origin: string;
let problems: string[];

beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-caldav-e2e-'));
  serve = await startServe(['--port', '0', '--data', join(home, 'data')], isolatedEnv(home));
  origin = /^https?:\/\/[^/]+/.exec(serve.webUi)![0];
  const token = (await readFile(serve.tokenFile, 'utf8')).trim();
  browser = await launchChromium();
  page = await (
    await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' })
  ).newPage();
  page.setDefaultTimeout(10_000);
  problems = watchProblems(page);
  await page.goto(await freshSignInLink(origin, token));
  await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  if (home) await rm(home, { recursive: true, force: true });
});

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
