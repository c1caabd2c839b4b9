import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { callApi, screenshot, signIn, startApp, stopApp, type E2eApp, type SignedInBrowser } from './browser';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Two-way sync on the Publish screen, in Chromium: the app's own server and a second Calendar Desk as the
 * site. Changes made on the site show as incoming in the preview, a field changed on both sides shows its
 * three values, and after the sync the calendar shows what came from the site.
 * Screenshots: test-results/e2e/sync-*.png.
 */
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

let app: E2eApp;
let signedIn: SignedInBrowser;
let remote: TestServer;
let page: Page;
let problems: string[];
let origin: string;
const day = new Date().toISOString().slice(0, 10);

const local = (path: string, method: string, json: unknown) => callApi(app, path, { method, json });

/** The remote's copy of a local event, found by its title. */
async function remoteEvent(title: string): Promise<{ id: number }> {
  const listed = await remote.api(`events?start_date=${day}&end_date=${day}`, { auth: remote.admin });
  const found = (listed.body.events as { id: number; title: string }[]).find(
    (event) => event.title === title,
  );
  expect(found, `${title} on the remote`).toBeDefined();
  return found!;
}

async function remotePatch(id: number, json: unknown) {
  const answer = await remote.api(`events/${id}`, { method: 'PATCH', auth: remote.admin, json });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

beforeAll(async () => {
  app = await startApp('sync-e2e', ['--port', '0']);
  ({ origin } = app);
  remote = await startTestServer();
  for (const title of ['Spring concert', 'Choir rehearsal']) {
    await local('cal/events/v1/events', 'POST', {
      title,
      status: 'publish',
      start_date: `${day} 18:00:00`,
      end_date: `${day} 20:00:00`,
    });
  }
  await local('calendar-desk/v1/remotes', 'PUT', [
    {
      name: 'Second desk',
      root: remote.engine.apiRoot,
      auth_type: 'token',
      secret: remote.engine.adminToken,
    },
  ]);
  signedIn = await signIn(app, { timeout: 15_000 });
  ({ page, problems } = signedIn);
}, 180_000);

afterAll(async () => {
  await stopApp(app, signedIn);
  await remote?.close();
});

describe('two-way sync on the Publish screen', { timeout: 120_000 }, () => {
  it('publishes both events first', async () => {
    await page.goto(`${origin}/#/sync`);
    await page.getByRole('radiogroup', { name: 'Your sites' }).waitFor();
    await page.getByTestId('run-sync').click();
    await page.getByTestId('sync-report').waitFor();
    expect(await page.getByTestId('summary-created').textContent()).toBe('2');
    expect(await page.getByTestId('summary-failed').textContent()).toBe('0');
    // Nothing came from the site: the notice does not speak of it.
    await page.getByText('Published: 2 created').waitFor();
    expect(await page.getByText(/From the site:/).count()).toBe(0);
  });

  it('previews what comes from the site: a new event, an edit, and a field changed on both sides with its three values', async () => {
    const concert = await remoteEvent('Spring concert');
    const rehearsal = await remoteEvent('Choir rehearsal');
    // On the site: the concert's description edited, a new event, the rehearsal renamed.
    await remotePatch(concert.id, { description: '<p>Tickets at the door.</p>' });
    const created = await remote.api('events', {
      method: 'POST',
      auth: remote.admin,
      json: {
        title: 'Open day',
        status: 'publish',
        start_date: `${day} 10:00:00`,
        end_date: `${day} 12:00:00`,
      },
    });
    expect(created.status).toBe(201);
    await remotePatch(rehearsal.id, { title: 'Choir rehearsal in the crypt' });
    // Here: the rehearsal renamed too, differently.
    const [here] = (
      (await (
        await fetch(`${origin}/wp-json/cal/events/v1/events?search=Choir%20rehearsal&start_date=${day}`)
      ).json()) as { events: { id: number }[] }
    ).events;
    await local(`cal/events/v1/events/${here.id}`, 'PATCH', { title: 'Choir rehearsal in the hall' });

    await page.getByTestId('dry-run').click();
    const incoming = page.getByTestId('sync-incoming');
    await incoming.waitFor();
    expect(await incoming.getByRole('heading').textContent()).toBe('2 changes from the site');
    const rows = (await incoming.locator('tbody tr').allInnerTexts()).map((row) => row.replace(/\s+/g, ' '));
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^New here Event Open day/),
        expect.stringMatching(/^Updated from the site Event Spring concert \(description\)/),
      ]),
    );
    const conflict = page.getByTestId('sync-conflicts').locator('tr', { hasText: 'title' });
    expect(await conflict.getByTestId('conflict-base').innerText()).toBe('Choir rehearsal');
    expect(await conflict.getByTestId('conflict-here').innerText()).toBe('Choir rehearsal in the hall');
    expect(await conflict.getByTestId('conflict-there').innerText()).toBe('Choir rehearsal in the crypt');

    await page.getByTestId('sync-plan').scrollIntoViewIfNeeded();
    await screenshot(page, 'sync-incoming-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await incoming.scrollIntoViewIfNeeded();
    await screenshot(page, 'sync-incoming-390');
    await page.getByTestId('sync-conflicts').scrollIntoViewIfNeeded();
    await screenshot(page, 'sync-conflict-390');
    const overflow = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.clientWidth);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('sync-conflicts').scrollIntoViewIfNeeded();
    await screenshot(page, 'sync-conflict-1440');
  });

  it('only sending leaves out what comes from the site', async () => {
    await page.getByTestId('sync-direction').selectOption('push');
    await page.getByTestId('dry-run').click();
    await page.getByTestId('sync-plan').waitFor();
    await expect.poll(() => page.getByTestId('sync-incoming').count()).toBe(0);
    await page.getByTestId('sync-direction').selectOption('both');
  });

  it('after syncing, the calendar shows the event new on the site, and the edit taken from it', async () => {
    // The calendar was read before the sync: it must read again, not show what it had.
    await page.goto(`${origin}/#/`);
    await page.locator('.fc-event', { hasText: 'Spring concert' }).first().waitFor();
    expect(await page.locator('.fc-event', { hasText: 'Open day' }).count()).toBe(0);
    await page.goto(`${origin}/#/sync`);
    await page.getByRole('radiogroup', { name: 'Your sites' }).waitFor();
    await page.getByTestId('run-sync').click();
    await page.getByTestId('sync-report').waitFor();
    expect(await page.getByTestId('summary-imported').textContent()).toBe('1');
    expect(await page.getByTestId('summary-pulled').textContent()).toBe('1');
    expect(await page.getByTestId('summary-conflicts').textContent()).toBe('1');
    await page.getByText('From the site: 1 new, 1 updated, 0 moved to the trash.').waitFor();
    await page.getByRole('navigation').first().getByRole('link', { name: 'Calendar' }).click();
    await page.locator('.fc-event', { hasText: 'Open day' }).first().waitFor();
    await screenshot(page, 'sync-calendar-after-1440');
    const taken = await fetch(
      `${origin}/wp-json/cal/events/v1/events?search=Spring%20concert&start_date=${day}&end_date=${day}`,
    );
    const [concert] = ((await taken.json()) as { events: { description: string }[] }).events;
    expect(concert.description).toContain('Tickets at the door.');
    expect(problems).toEqual([]);
  });
});
