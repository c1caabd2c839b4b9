import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  callApi,
  EVENTS_API,
  launchChromium,
  screenshot,
  signInPage,
  startApp,
  stopApp,
  type E2eApp,
} from './browser';

/**
 * Merge on the Venues and Organizers screens (issue 15 item 3), in Chromium against a real `serve`: pick the
 * record to keep from a searchable list, confirm (the dialog says how many events move and that the other goes to
 * the trash), and the list and the events show the kept one. Venues at 1440 px, organizers at 390 px.
 * Screenshots: test-results/e2e/merge-*.png.
 */

let app: E2eApp;
let browser: Browser;

const call = (method: string, path: string, json?: unknown) =>
  callApi<Record<string, unknown> & { id: number }>(app, `${EVENTS_API}/${path}`, { method, json });

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const event = (title: string, days: number, extra: Record<string, unknown>) =>
  call('POST', 'events', {
    title,
    start_date: `${inDays(days)} 20:00:00`,
    end_date: `${inDays(days)} 22:00:00`,
    status: 'publish',
    ...extra,
  });

let kept: number;
let twin: number;
let anna: number;
let annaToo: number;
const moved: number[] = [];

beforeAll(async () => {
  app = await startApp('merge-e2e');
  kept = (await call('POST', 'venues', { venue: 'Teatro Comunale', address: 'Via Roma 1', city: 'Bologna' }))
    .id;
  twin = (await call('POST', 'venues', { venue: 'Teatro Com. Bologna', address: 'via Roma 1' })).id;
  await call('POST', 'venues', { venue: 'Sala Borsa', address: 'Piazza Nettuno 3', city: 'Bologna' });
  anna = (await call('POST', 'organizers', { organizer: 'Anna Rossi', email: 'anna@example.org' })).id;
  annaToo = (await call('POST', 'organizers', { organizer: 'A. Rossi' })).id;
  moved.push((await event('Spring concert', 5, { venue: twin, organizer: [annaToo] })).id);
  moved.push((await event('Summer concert', 6, { venue: twin, status: 'draft' })).id);
  await event('Opening night', 4, { venue: kept, organizer: [anna, annaToo] });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stopApp(app, undefined);
});

const openAt = (width: number, height: number) =>
  signInPage(browser, app, { timeout: 15_000, context: { viewport: { width, height } } });

/** Merges the row named `from` into `into` through the dialogs; screenshots `merge-<shot>-pick|confirm`. */
async function mergeThroughDialogs(page: Page, from: string, into: string, search: string, shot: string) {
  const row = page.getByRole('row').filter({ hasText: from });
  await row.getByTestId('merge-record').click();
  const picker = page.getByRole('dialog', { name: `Merge “${from}” into…` });
  await picker.waitFor();
  await picker.getByRole('searchbox').fill(search);
  // The record being merged is never offered; the search narrows the rest.
  await expect.poll(() => picker.getByRole('radio').count()).toBe(1);
  await expect(picker.getByText(from, { exact: true }).count()).resolves.toBe(0);
  await picker.getByRole('radio').check();
  await screenshot(page, `merge-${shot}-pick`);
  await picker.getByTestId('merge-continue').click();
  const confirm = page.getByRole('dialog', { name: 'Merge?' });
  await confirm.waitFor();
  await expect.poll(() => confirm.textContent()).toMatch(/events? moves? from/);
  await screenshot(page, `merge-${shot}-confirm`);
  const text = (await confirm.textContent()) ?? '';
  await confirm.getByTestId('confirm').click();
  await page.getByTestId('notices').getByText(`Merged into “${into}”`).waitFor();
  return text;
}

describe('Merge on the Venues and Organizers screens', { timeout: 60_000 }, () => {
  it('merges a venue into the one picked, at 1440 px: the list and the events show the kept venue', async () => {
    const { page, problems } = await openAt(1440, 900);
    await page.goto(`${app.origin}/#/venues`);
    await page.getByRole('row').filter({ hasText: 'Teatro Com. Bologna' }).waitFor();
    const said = await mergeThroughDialogs(
      page,
      'Teatro Com. Bologna',
      'Teatro Comunale',
      'comunale',
      '1440',
    );
    expect(said).toContain('2 events move from “Teatro Com. Bologna” to “Teatro Comunale”.');
    expect(said).toContain('“Teatro Com. Bologna” then goes to the trash');
    await expect(page.getByTestId('notices').textContent()).resolves.toContain(
      'Merged into “Teatro Comunale”: 2 events moved.',
    );
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Teatro Com. Bologna' }).count()).toBe(0);
    await expect(page.getByRole('row').filter({ hasText: 'Teatro Comunale' }).count()).resolves.toBe(1);

    // The events now show the kept venue; the merged one is in the Trash.
    for (const id of moved) expect((await call('GET', `events/${id}`)).venue).toMatchObject({ id: kept });
    await page.goto(`${app.origin}/#/events`);
    await page.getByRole('row').filter({ hasText: 'Spring concert' }).getByText('Teatro Comunale').waitFor();
    await page.goto(`${app.origin}/#/trash`);
    await page.getByText('Teatro Com. Bologna').waitFor();
    expect(problems).toEqual([]);
  });

  it('merges an organizer at 390 px: each event lists the kept one once', async () => {
    const { page, problems } = await openAt(390, 844);
    await page.goto(`${app.origin}/#/organizers`);
    await page.getByRole('row').filter({ hasText: 'A. Rossi' }).waitFor();
    const said = await mergeThroughDialogs(page, 'A. Rossi', 'Anna Rossi', 'anna', '390');
    expect(said).toContain('2 events move from “A. Rossi” to “Anna Rossi”.');
    // Nothing sticks out of the phone-wide window.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'A. Rossi' }).count()).toBe(0);
    const opening = (await call('GET', `events?search=Opening&per_page=5`)) as unknown as {
      events: Array<{ organizer: Array<{ id: number }> }>;
    };
    expect(opening.events[0]!.organizer.map((organizer) => organizer.id)).toEqual([anna]);
    expect((await call('GET', `events/${moved[0]}`)).organizer).toMatchObject([{ id: anna }]);
    expect(annaToo).not.toBe(anna);
    expect(problems).toEqual([]);
  });
});
