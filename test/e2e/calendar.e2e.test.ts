import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import {
  launchChromium,
  screenshot,
  settledBox,
  startApp,
  stopApp,
  watchProblems,
  type E2eApp,
} from './browser';
import { startTestServer } from '../helpers/server';

/**
 * The whole UI as a user meets it: `calendar-desk serve` on a temporary data folder (site zone Europe/Rome),
 * Debian's Chromium driven by Playwright, every step checked against the API too.
 */
const ZONE = 'Europe/Rome';
/** A real 1×1 PNG, for the picture upload. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
let app: E2eApp;
let browser: Browser;
let page: Page;
let problems: string[];
let origin: string;
let token: string;

/** The event's day: today in the site zone; it is dragged to a neighbour day of the same month. */
const today = DateTime.now().setZone(ZONE);
const day = today.toISODate()!;
const target = (
  today.day < today.daysInMonth! ? today.plus({ days: 1 }) : today.minus({ days: 1 })
).toISODate()!;

async function api(path: string) {
  const response = await fetch(`${origin}/wp-json/cal/events/v1/${path}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return (await response.json()) as Record<string, never>;
}

async function nav(label: string) {
  await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
}

async function createRecord(screen: string, fields: Record<string, string>) {
  await nav(screen);
  await page.getByTestId('new-record').click();
  for (const [label, value] of Object.entries(fields)) {
    await page.getByRole('dialog').getByLabel(label, { exact: true }).fill(value);
  }
  await screenshot(page, `02-${screen.toLowerCase()}-form`);
  await page.getByTestId('save-record').click();
  await expect.poll(() => page.getByRole('table').textContent()).toContain(Object.values(fields)[0]);
}

beforeAll(async () => {
  app = await startApp('e2e', ['--port', '0', '--timezone', ZONE]);
  ({ origin, token } = app);
  // Not signed in: the first test signs in through the link `serve` prints.
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 820 }, locale: 'en-GB' });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  problems = watchProblems(page);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stopApp(app, undefined);
});

describe('the calendar in a browser, against serve', { timeout: 60_000 }, () => {
  it('signs in from the link that serve prints, and the code leaves the address bar', async () => {
    // Without a session, any screen leads to the sign-in form.
    await page.goto(`${origin}/#/venues`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(page.url()).toContain('#/signin?next=/venues');
    await screenshot(page, '00-signin');
    expect(app.serve.signInLink).not.toContain('cdt_');
    await page.goto(app.serve.signInLink);
    await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
    expect(page.url()).not.toContain('code=');
    expect(await page.getByText(`Times in ${ZONE}`).isVisible()).toBe(true);
    await screenshot(page, '01-calendar-empty');
  });

  it('creates a venue, an organizer, a category and a tag on their screens', async () => {
    await createRecord('Venues', { Name: 'Teatro Verdi', City: 'Trieste' });
    await screenshot(page, '02-venues');
    await createRecord('Organizers', { Name: 'Anna Rossi', 'E-mail': 'anna@example.org' });
    await createRecord('Categories', { Name: 'Music' });
    await createRecord('Tags', { Name: 'outdoor' });
    const venues = await api('venues');
    expect(venues.venues).toEqual([expect.objectContaining({ venue: 'Teatro Verdi', city: 'Trieste' })]);
    expect((await api('tags?hide_empty=false')).tags).toEqual([expect.objectContaining({ name: 'outdoor' })]);
  });

  it('creates an event from a click on the calendar, using all four', async () => {
    await nav('Calendar');
    await page.locator(`.fc-daygrid-day[data-date="${day}"] .fc-daygrid-day-frame`).click();
    await page.getByRole('heading', { name: 'New event' }).waitFor();
    // Written the English (en-GB) way: 24/11/2026.
    expect(await page.locator('#event-start-date').inputValue()).toBe(
      DateTime.fromISO(day).toFormat('dd/MM/yyyy'),
    );
    await page.locator('#event-title').fill('Summer Concert');
    await page.getByTestId('start-time').fill('18:00');
    await page.getByTestId('end-time').fill('20:00');
    await page.locator('#event-venue').selectOption({ label: 'Teatro Verdi — Trieste' });
    await page.locator('#event-organizers').getByLabel('Anna Rossi').check();
    await page.locator('#event-categories').getByLabel('Music').check();
    await page.getByTestId('add-tag').fill('outdoor');
    await page.getByTestId('add-tag').press('Enter');
    await page.locator('.chip', { hasText: 'outdoor' }).waitFor();
    await page
      .getByTestId('image-file')
      .setInputFiles({ name: 'poster.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('image-preview').waitFor();
    await page.locator('#event-description').click();
    await page.keyboard.type('Open-air evening with the city orchestra.');
    await screenshot(page, '03-event-editor');
    await page.getByTestId('save-event').click();
    await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();

    const [event] = (await api(`events?start_date=${day}&end_date=${day}`)).events as Record<string, never>[];
    expect(event).toMatchObject({
      title: 'Summer Concert',
      start_date: `${day} 18:00:00`,
      end_date: `${day} 20:00:00`,
      timezone: ZONE,
      venue: expect.objectContaining({ venue: 'Teatro Verdi' }),
      organizer: [expect.objectContaining({ organizer: 'Anna Rossi' })],
      categories: [expect.objectContaining({ name: 'Music' })],
      tags: [expect.objectContaining({ name: 'outdoor' })],
    });
    expect(event.description).toContain('Open-air evening');
    // The picture was copied into the data folder and is served by the app.
    expect(event.image).toMatchObject({
      extension: 'png',
      url: expect.stringMatching(/\/media\/[a-f0-9]{12}-poster\.png$/),
    });
    const picture = await fetch((event.image as unknown as { url: string }).url);
    expect(Buffer.from(await picture.arrayBuffer())).toEqual(PNG);
  });

  it('shows the event in month, week and list views', async () => {
    const inMonth = page.locator(`.fc-daygrid-day[data-date="${day}"]`).getByText('Summer Concert');
    await inMonth.waitFor();
    await screenshot(page, '04-month');
    await page.locator('.fc-timeGridWeek-button').click();
    await page.locator('.fc-timegrid-event', { hasText: 'Summer Concert' }).waitFor();
    expect(await page.locator('.fc-timegrid-event', { hasText: 'Summer Concert' }).textContent()).toContain(
      '18:00',
    );
    await screenshot(page, '05-week');

    // Resize: drag the bottom edge one hour down (two half-hour slots): the end moves, the start stays.
    const block = page.locator('.fc-timegrid-event', { hasText: 'Summer Concert' });
    // The evening away from the grid's bottom edge: a drag ending near it makes the calendar scroll by itself
    // (by more or less, with the machine's speed), which would lengthen the event by an extra slot.
    await block.evaluate((element) =>
      (element as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: 'center' }),
    );
    await block.hover();
    const edge = await settledBox(block.locator('.fc-event-resizer-end'));
    const slot = await settledBox(page.locator('.fc-timegrid-slot-lane').first());
    await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
    await page.mouse.down();
    await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2 + 5, { steps: 3 });
    await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2 + 2 * slot.height, { steps: 10 });
    await page.mouse.up();
    await page.getByText('“Summer Concert” rescheduled.').first().waitFor();
    await expect
      .poll(
        async () =>
          ((await api(`events?start_date=${day}&end_date=${day}`)).events as Record<string, never>[])[0],
      )
      .toMatchObject({ start_date: `${day} 18:00:00`, end_date: `${day} 21:00:00` });
    // Undo puts the stored dates back, and says so.
    await page.getByRole('button', { name: 'Undo' }).last().click();
    await page.getByText('“Summer Concert” is back where it was.').waitFor();
    await expect
      .poll(
        async () =>
          ((await api(`events?start_date=${day}&end_date=${day}`)).events as Record<string, never>[])[0],
      )
      .toMatchObject({ start_date: `${day} 18:00:00`, end_date: `${day} 20:00:00` });
    await page.locator('.fc-listMonth-button').click();
    await page.locator('.fc-list-event', { hasText: 'Summer Concert' }).waitFor();
    await screenshot(page, '06-list');
    await page.locator('.fc-dayGridMonth-button').click();
  });

  it('reschedules the event by dragging it to another day (a PATCH keeping the time, in the event zone)', async () => {
    const source = page.locator(`.fc-daygrid-day[data-date="${day}"] .fc-event`, {
      hasText: 'Summer Concert',
    });
    const destination = page.locator(`.fc-daygrid-day[data-date="${target}"] .fc-daygrid-day-frame`);
    const from = await settledBox(source);
    const to = await settledBox(destination);
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 5, from.y + from.height / 2 + 5, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 15 });
    await page.mouse.up();
    await page.getByText('“Summer Concert” rescheduled.').waitFor();
    await page.locator(`.fc-daygrid-day[data-date="${target}"]`).getByText('Summer Concert').waitFor();
    const [event] = (await api(`events?start_date=${target}&end_date=${target}`)).events as Record<
      string,
      never
    >[];
    expect(event).toMatchObject({ start_date: `${target} 18:00:00`, end_date: `${target} 20:00:00` });
  });

  it('edits the event, showing the API validation error next to its field', async () => {
    await page
      .locator(`.fc-daygrid-day[data-date="${target}"] .fc-event`, { hasText: 'Summer Concert' })
      .click();
    // A click shows the event at a glance; Edit opens the editor.
    await page.getByTestId('quick-edit').click();
    await page.getByRole('heading', { name: 'Edit event' }).waitFor();
    await page.locator('#event-title').fill('Summer Concert (moved)');
    // Leaving with unsaved changes asks first; staying keeps them.
    await nav('Calendar');
    await page.getByRole('dialog', { name: 'Discard your changes?' }).waitFor();
    await page.locator('dialog[open]').getByRole('button', { name: 'Cancel' }).click();
    expect(await page.locator('#event-title').inputValue()).toBe('Summer Concert (moved)');
    await page.locator('#event-website').fill('not a web address');
    await page.getByTestId('save-event').click();
    const fieldError = page.locator('.field-error[data-field="event-website"]');
    await fieldError.waitFor();
    expect(await fieldError.textContent()).toMatch(/web address.*https?:\/\//i);
    await screenshot(page, '07-validation-error');
    // Nothing was saved by the refused request.
    const [unchanged] = (await api(`events?start_date=${target}&end_date=${target}`)).events as Record<
      string,
      never
    >[];
    expect(unchanged.title).toBe('Summer Concert');

    await page.locator('#event-website').fill('https://example.org/concert');
    await page.getByTestId('save-event').click();
    await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
    const [saved] = (await api(`events?start_date=${target}&end_date=${target}`)).events as Record<
      string,
      never
    >[];
    expect(saved).toMatchObject({ title: 'Summer Concert (moved)', website: 'https://example.org/concert' });
  });

  it('finds the event by search and filter', async () => {
    await nav('Events');
    // On a month's last day the event went to the day before; the search starts today unless From is cleared,
    // which is what a volunteer looking for a past event does.
    if (target < day) await page.getByTestId('search-from').fill('');
    await page.getByTestId('event-search').fill('moved');
    await page.getByRole('link', { name: 'Summer Concert (moved)' }).waitFor();
    await page.getByLabel('Venue', { exact: true }).selectOption({ label: 'Teatro Verdi' });
    await page.getByRole('link', { name: 'Summer Concert (moved)' }).waitFor();
    await screenshot(page, '08-search');
  });

  it('deletes the event to the trash after a confirmation', async () => {
    await page.getByRole('link', { name: 'Summer Concert (moved)' }).click();
    await page.getByTestId('delete-event').click();
    await page.locator('dialog[open] [data-testid="confirm"]').click();
    await page.getByText('“Summer Concert (moved)” moved to the trash.').waitFor();
    const trashed = await api(`events?start_date=${target}&end_date=${target}&status=trash`);
    expect(trashed.events).toEqual([expect.objectContaining({ status: 'trash' })]);
    await nav('Calendar');
    await page.locator('.fc-daygrid-body').waitFor();
    await expect.poll(() => page.locator('.fc-event', { hasText: 'Summer Concert' }).count()).toBe(0);
  });

  it('publishes to another Calendar Desk from the Publish screen: preview, progress, summary', async () => {
    const remote = await startTestServer();
    try {
      await fetch(`${origin}/wp-json/cal/events/v1/events`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          title: 'Published talk',
          start_date: `${day} 10:00`,
          end_date: `${day} 11:00`,
        }),
      });
      await nav('Publish');
      await page.getByTestId('new-remote').click();
      await page.locator('#remote-name').fill('Second desk');
      await page.locator('#remote-root').fill(remote.engine.apiRoot);
      await page.locator('#remote-auth').selectOption('token');
      await page.locator('#remote-secret').fill(remote.engine.adminToken);
      await page.getByTestId('save-remote').click();
      await page.getByText('Second desk').waitFor();

      await page.getByTestId('dry-run').click();
      const plan = page.getByTestId('sync-plan');
      await plan.waitFor();
      expect(await plan.textContent()).toContain('Published talk');
      await screenshot(page, '09-publish-preview');
      // A preview changes nothing on the remote.
      expect((await remote.api('venues')).body.venues).toEqual([]);

      await page.getByTestId('run-sync').click();
      await page.getByTestId('sync-report').waitFor();
      await screenshot(page, '10-publish-done');
      expect(Number(await page.getByTestId('summary-created').textContent())).toBeGreaterThanOrEqual(5);
      expect(await page.getByTestId('summary-failed').textContent()).toBe('0');
      // Every number sits right under its own label.
      for (const item of await page.locator('.summary-item').all()) {
        const label = (await item.locator('dt').boundingBox())!;
        const number = (await item.locator('dd').boundingBox())!;
        expect(Math.abs(number.x - label.x)).toBeLessThan(1);
        expect(number.y).toBeGreaterThan(label.y);
      }
      const remoteEvents = await remote.api(`events?start_date=${day}&end_date=${day}`);
      expect(remoteEvents.body.events.map((event: { title: string }) => event.title)).toContain(
        'Published talk',
      );
      expect((await remote.api('venues')).body.venues).toEqual([
        expect.objectContaining({ venue: 'Teatro Verdi' }),
      ]);

      // Changed here since: the preview names the fields an update changes, and the picture is uploaded.
      const auth = { Authorization: `Bearer ${token}` };
      const uploaded = await fetch(`${origin}/wp-json/calendar-desk/v1/media`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'image/png' },
        body: PNG,
      });
      const talk = remoteEvents.body.events.find(
        (event: { title: string }) => event.title === 'Published talk',
      )!;
      const local = await fetch(
        `${origin}/wp-json/cal/events/v1/events?search=Published%20talk&start_date=${day}&end_date=${day}`,
      );
      const [localTalk] = ((await local.json()) as { events: Array<{ id: number }> }).events;
      await fetch(`${origin}/wp-json/cal/events/v1/events/${localTalk.id}`, {
        method: 'PATCH',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          title: 'Published talk, now with a poster',
          image: ((await uploaded.json()) as { id: number }).id,
        }),
      });
      await page.getByTestId('dry-run').click();
      await expect
        .poll(() => page.getByTestId('changed-fields').textContent())
        .toMatch(/\(.*image.*title.*\)|\(.*title.*image.*\)/);
      await screenshot(page, '10a-publish-update-preview');
      await page.getByTestId('run-sync').click();
      await expect.poll(() => page.getByTestId('summary-uploaded').textContent()).toBe('1');
      const updated = await remote.api(`events/${talk.id}`);
      expect(updated.body.title).toBe('Published talk, now with a poster');
      const picture = await fetch(updated.body.image.url);
      expect(Buffer.from(await picture.arrayBuffer())).toEqual(PNG);

      // Changed on both sides since: both versions are shown, nothing is overwritten until a version is
      // chosen (a choice taken back counts as none), then the version chosen is published.
      await fetch(`${origin}/wp-json/cal/events/v1/events/${localTalk.id}`, {
        method: 'PATCH',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'Published talk, room 2' }),
      });
      const there = await remote.api(`events/${talk.id}`, {
        method: 'PATCH',
        auth: remote.admin,
        json: { title: 'Published talk, edited on the site' },
      });
      expect(there.status).toBe(200);
      await page.getByTestId('dry-run').click();
      const conflicts = page.getByTestId('sync-conflicts');
      await expect.poll(() => conflicts.textContent()).toContain('Published talk, edited on the site');
      expect(await conflicts.textContent()).toContain('Published talk, room 2');
      const decision = conflicts.getByRole('combobox', { name: 'Decision' });
      await decision.selectOption({ label: 'Take the website’s version' });
      await decision.selectOption({ label: 'Decide…' });
      await page.getByTestId('run-sync').click();
      await expect.poll(() => page.getByTestId('summary-conflicts').textContent()).toBe('1');
      expect((await remote.api(`events/${talk.id}`)).body.title).toBe('Published talk, edited on the site');
      await screenshot(page, '10a-publish-conflict');

      await decision.selectOption({ label: 'Keep this calendar’s version' });
      await page.getByTestId('run-sync').click();
      await expect.poll(() => page.getByTestId('summary-conflicts').textContent()).toBe('0');
      expect((await remote.api(`events/${talk.id}`)).body.title).toBe('Published talk, room 2');
      expect(await conflicts.count()).toBe(0);
    } finally {
      await remote.close();
    }
  });

  it('answers the keyboard: shortcuts help, new event, back to the calendar; and switches to the dark theme', async () => {
    await nav('Calendar');
    await page.locator('.fc-daygrid-body').waitFor();
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await screenshot(page, '10b-shortcuts');
    await page.keyboard.press('Escape');
    await page.keyboard.press('n');
    await page.getByRole('heading', { name: 'New event' }).waitFor();
    // A new event starts with its title focused…
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('event-title');
    await page.keyboard.press('c');
    // …and typing in a field is not a shortcut: "c" went into the title, not to the calendar.
    expect(await page.locator('#event-title').inputValue()).toBe('c');
    await page.locator('#event-title').fill('');
    // Evaluated in the page (a string: this file is type-checked without the DOM library).
    await page.evaluate('document.activeElement?.blur()');
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();

    await nav('Settings');
    await page.getByTestId('ui-theme').selectOption('dark');
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await nav('Calendar');
    await screenshot(page, '10c-calendar-dark');
    await nav('Settings');
    await page.getByTestId('ui-theme').selectOption('light');
    expect(await page.locator('html').getAttribute('data-theme')).toBe('light');
  });

  it('switches the interface to Italian, and every screen renders without console errors', async () => {
    await nav('Settings');
    await page.getByTestId('ui-language').selectOption('it');
    await page.getByRole('heading', { name: 'Impostazioni' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('it');
    await screenshot(page, '11-settings-it');
    await nav('Calendario');
    expect(await page.locator('.fc-dayGridMonth-button').textContent()).toMatch(/mese/i);
    for (const screen of [
      'Eventi',
      'Luoghi',
      'Organizzatori',
      'Categorie',
      'Tag',
      'Pubblica',
      'Calendario',
    ]) {
      await nav(screen);
      await page.locator('main h1').waitFor();
    }
    await page.getByTestId('ui-language').count();
    await screenshot(page, '12-calendar-it');
    expect(problems).toEqual([]);
  });
});
