import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { Page, Route } from 'playwright-core';
import {
  calendarShown,
  callApi,
  EVENTS_API,
  screenshot,
  signIn,
  startApp,
  stopApp,
  type E2eApp,
  type SignedInBrowser,
  navigateTo,
} from './browser';

/**
 * Finding one's way in the calendar as a choir secretary planning a season does: the calendar keeps its place,
 * the editor keeps an event's length, a quick view, filters and colours, a navigator, the trash, and a warning
 * before booking a venue twice. `calendar-desk serve` on a temporary folder (site zone Europe/Rome), Chromium.
 */
const ZONE = 'Europe/Rome';
let app: E2eApp;
let signedIn: SignedInBrowser;
let page: Page;
let problems: string[];
let origin: string;
let token: string;

/** The season's month: two months from now, so "today" is never on screen by accident. */
const season = DateTime.now().setZone(ZONE).startOf('month').plus({ months: 2 });
const seasonDay = (day: number) => season.set({ day }).toISODate()!;
/** The same day as the editor's date fields write it in English (en-GB): 22/01/2027. */
const seasonDayTyped = (day: number) => season.set({ day }).toFormat('dd/MM/yyyy');
const monthTitle = season.setLocale('en').toFormat('LLLL yyyy');

type Json = Record<string, never>;
/** An element as far as these tests touch it (this file is type-checked without the DOM library). */
type Scrollable = { scrollTop: number };

const api = (path: string, init: { method?: string; json?: unknown } = {}) =>
  callApi<Json>(app, `${EVENTS_API}/${path}`, init);

const seasonEvents = async () =>
  (await api(`events?start_date=${seasonDay(1)}&end_date=${season.endOf('month').toISODate()}&status=any`))
    .events as Json[];

const nav = (label: string) => navigateTo(page, label);

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
let galaId = 0;

beforeAll(async () => {
  app = await startApp('place', ['--port', '0', '--timezone', ZONE]);
  ({ origin, token } = app);

  venueId = (await api('venues', { method: 'POST', json: { venue: 'Teatro Verdi', city: 'Trieste' } })).id;
  hallId = (await api('venues', { method: 'POST', json: { venue: 'Parish hall', city: 'Trieste' } })).id;
  musicId = (await api('categories', { method: 'POST', json: { name: 'Music' } })).id;
  await api('categories', { method: 'POST', json: { name: 'Meetings' } });
  const anna = (await api('organizers', { method: 'POST', json: { organizer: 'Anna Rossi' } })).id;
  galaId = (
    await api('events', {
      method: 'POST',
      json: {
        title: 'Winter Gala with the City Orchestra and the Chamber Choir',
        start_date: `${seasonDay(15)} 19:00`,
        end_date: `${seasonDay(15)} 21:00`,
        venue: venueId,
        categories: [musicId],
        cost: '15€ / 10€ reduced',
      },
    })
  ).id;
  await api('events', {
    method: 'POST',
    json: {
      title: 'Choir rehearsal',
      start_date: `${seasonDay(8)} 20:00`,
      end_date: `${seasonDay(8)} 22:00`,
      venue: hallId,
      organizer: [anna],
      cost: '8',
    },
  });

  await api('events', {
    method: 'POST',
    json: {
      title: 'Summer festival',
      start_date: `${seasonDay(3)} 00:00`,
      end_date: `${seasonDay(5)} 23:59:59`,
      all_day: true,
    },
  });
  await api('events', {
    method: 'POST',
    json: {
      title: 'Last season closing concert',
      start_date: `${season.minus({ years: 1 }).toISODate()} 20:00`,
      end_date: `${season.minus({ years: 1 }).toISODate()} 22:00`,
    },
  });

  signedIn = await signIn(app, { timeout: 10_000, ready: calendarShown });
  ({ page, problems } = signedIn);
}, 120_000);

afterAll(() => stopApp(app, signedIn));

describe('finding your way in the calendar', { timeout: 60_000 }, () => {
  it('keeps the month after saving an event and on Back, and the week view its scroll position', async () => {
    await openSeasonMonth();
    expect(page.url()).toContain(`date=${season.toFormat('yyyy-MM')}-`);
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
    await page.locator('#event-start-date').fill(seasonDayTyped(22));
    expect(await page.locator('#event-end-date').inputValue()).toBe(seasonDayTyped(22));
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

  it('shows an event at a glance: time, venue, cost, categories; whole titles in the month, venue and cost in the list', async () => {
    await openSeasonMonth();
    const gala = eventIn(seasonDay(22), 'Winter Gala');
    // The long title is not cut: its box is as wide as its text needs.
    const title = gala.locator('.fc-event-title');
    expect(await title.textContent()).toBe('Winter Gala with the City Orchestra and the Chamber Choir');
    const box = await title.evaluate((element) => {
      const sized = element as unknown as { scrollWidth: number; clientWidth: number; scrollHeight: number };
      return { scroll: sized.scrollWidth, client: sized.clientWidth, height: sized.scrollHeight };
    });
    expect(box.scroll).toBeLessThanOrEqual(box.client);
    await screenshot(page, 'place-03-month-full-titles');

    await gala.click();
    const quick = page.getByTestId('quick-view');
    await quick.waitFor();
    const stored = await api(`events/${galaId}`);
    expect(await page.getByTestId('quick-when').textContent()).toMatch(/20:30|8:30/);
    expect(await page.getByTestId('quick-venue').textContent()).toContain('Teatro Verdi');
    // The cost as typed, not the API's formatted one (`10€ – 15€`: "reduced" lost).
    expect(stored.cost).toBe('10€ – 15€');
    expect(await page.getByTestId('quick-cost').textContent()).toBe('15€ / 10€ reduced');
    expect(await quick.textContent()).toContain('Music');
    await screenshot(page, 'place-03-quick-view');

    // Duplicate: the editor, filled in from the event, saves a second one.
    await page.getByTestId('quick-duplicate').click();
    await page.getByRole('heading', { name: 'New event' }).waitFor();
    expect(await page.locator('#event-title').inputValue()).toBe(
      'Winter Gala with the City Orchestra and the Chamber Choir (copy)',
    );
    expect(await page.locator('#event-start-date').inputValue()).toBe(seasonDayTyped(22));
    await page.locator('#event-title').fill('Gala encore');
    await page.locator('#event-start-date').fill(seasonDayTyped(23));
    await page.getByTestId('save-event').click();
    await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
    const encore = (await seasonEvents()).find((event) => event.title === 'Gala encore')!;
    expect(encore).toMatchObject({
      start_date: `${seasonDay(23)} 20:30:00`,
      end_date: `${seasonDay(23)} 22:30:00`,
      venue: expect.objectContaining({ id: venueId }),
      categories: [expect.objectContaining({ id: musicId })],
      cost: stored.cost,
    });

    // Delete from the quick view: to the trash, with an undo that says it was undone.
    await eventIn(seasonDay(23), 'Gala encore').click();
    await page.getByTestId('quick-delete').click();
    await page.getByText('“Gala encore” moved to the trash.').waitFor();
    await expect.poll(() => eventIn(seasonDay(23), 'Gala encore').count()).toBe(0);
    await page.getByTestId('notices').getByRole('button', { name: 'Undo' }).click();
    await page.getByTestId('notices').getByText('“Gala encore” is back from the trash.').waitFor();
    await screenshot(page, 'place-03-undone');
    await eventIn(seasonDay(23), 'Gala encore').waitFor();
    expect((await api(`events/${encore.id}`)).status).toBe('publish');
    await eventIn(seasonDay(23), 'Gala encore').click();
    await page.getByTestId('quick-delete').click();
    await page.getByText('“Gala encore” moved to the trash.').waitFor();
    await expect.poll(() => eventIn(seasonDay(23), 'Gala encore').count()).toBe(0);
    expect(
      (await api(`events?status=trash&start_date=${seasonDay(23)}&end_date=${seasonDay(23)}`)).events,
    ).toEqual([expect.objectContaining({ id: encore.id })]);

    // The list view: venue and cost beside the title, the cost as typed (a bare amount in the site currency).
    await page.locator('.fc-listMonth-button').click();
    const row = page.locator('.fc-list-event', { hasText: 'Winter Gala' });
    await row.waitFor();
    expect(await row.locator('.list-details').textContent()).toBe('Teatro Verdi · 15€ / 10€ reduced');
    const rehearsal = page.locator('.fc-list-event', { hasText: 'Choir rehearsal' });
    expect(await rehearsal.locator('.list-details').textContent()).toBe('Parish hall · $8');
    await screenshot(page, 'place-03-list-details');
    await page.locator('.fc-dayGridMonth-button').click();
  });

  it('filters the calendar by venue, category and organizer, and colours categories as picked', async () => {
    await openSeasonMonth();
    await eventIn(seasonDay(8), 'Choir rehearsal').waitFor();
    await page.getByTestId('filter-venue').selectOption({ label: 'Teatro Verdi' });
    await expect.poll(() => eventIn(seasonDay(8), 'Choir rehearsal').count()).toBe(0);
    await eventIn(seasonDay(22), 'Winter Gala').waitFor();
    await page.getByTestId('filter-venue').selectOption({ label: 'Parish hall' });
    await eventIn(seasonDay(8), 'Choir rehearsal').waitFor();
    expect(await eventIn(seasonDay(22), 'Winter Gala').count()).toBe(0);
    await page.getByTestId('filter-clear').click();
    await page.getByTestId('filter-category').selectOption({ label: 'Music' });
    await eventIn(seasonDay(22), 'Winter Gala').waitFor();
    await expect.poll(() => eventIn(seasonDay(8), 'Choir rehearsal').count()).toBe(0);
    await screenshot(page, 'place-03-filtered');
    await page.getByTestId('filter-clear').click();
    await page.getByTestId('filter-organizer').selectOption({ label: 'Anna Rossi' });
    await expect.poll(() => eventIn(seasonDay(22), 'Winter Gala').count()).toBe(0);
    await eventIn(seasonDay(8), 'Choir rehearsal').waitFor();
    await page.getByTestId('filter-clear').click();
    await eventIn(seasonDay(22), 'Winter Gala').waitFor();

    // A colour picked in the legend: kept in the settings, used for the category's events, with dark text.
    await page.getByLabel('Colour of Music').fill('#ffd700');
    await expect
      .poll(async () => {
        const response = await fetch(`${origin}/wp-json/calendar-desk/v1/settings`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        return ((await response.json()) as { category_colors: Record<string, string> }).category_colors;
      })
      .toEqual({ [String(musicId)]: '#ffd700' });
    const galaColors = () =>
      eventIn(seasonDay(22), 'Winter Gala').evaluate((element) => {
        const style = (
          globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }
        ).getComputedStyle(element);
        return style.backgroundColor;
      });
    await expect.poll(galaColors).toBe('rgb(255, 215, 0)');
    await screenshot(page, 'place-03-legend-colour');
    // Still so after a reload.
    await page.reload();
    await expect.poll(galaColors).toBe('rgb(255, 215, 0)');
  });

  it('jumps to a date with the mini month (mouse and keyboard) and with "Go to date"', async () => {
    await openSeasonMonth();
    const later = season.plus({ months: 3 }).set({ day: 10 });
    await page.getByLabel('Go to date').fill(later.toFormat('dd/MM/yyyy'));
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await expect
      .poll(() => page.locator('.fc-toolbar-title').textContent())
      .toBe(later.setLocale('en').toFormat('LLLL yyyy'));
    expect(page.url()).toContain(`date=${later.toISODate()}`);

    // The mini month follows the calendar; its arrows page it, a day click moves the calendar there.
    const mini = page.getByTestId('mini-month');
    expect(await mini.locator('h2').textContent()).toBe(later.setLocale('en').toFormat('LLLL yyyy'));
    for (let step = 0; step < 3; step += 1)
      await mini.getByRole('button', { name: 'Previous month' }).click();
    expect(await mini.locator('h2').textContent()).toBe(monthTitle);
    await mini.locator(`[data-date="${seasonDay(22)}"]`).click();
    await expect.poll(() => page.locator('.fc-toolbar-title').textContent()).toBe(monthTitle);
    await eventIn(seasonDay(22), 'Winter Gala').waitFor();
    await screenshot(page, 'place-04-mini-month');

    // Keyboard: the picked day holds the focus; arrows move a day or a week, Enter goes there.
    await mini.locator(`[data-date="${seasonDay(22)}"]`).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    const target = season.set({ day: 22 }).plus({ days: 15 });
    await expect.poll(() => page.evaluate('document.activeElement?.dataset.date')).toBe(target.toISODate());
    // The arrows moved within the mini month only: the big calendar (whose shortcut ← → pages it) stayed.
    expect(await page.locator('.fc-toolbar-title').textContent()).toBe(monthTitle);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('.fc-toolbar-title').textContent())
      .toBe(target.setLocale('en').toFormat('LLLL yyyy'));
  });

  it('moves to the date and view an address names, without reloading the page', async () => {
    await openSeasonMonth();
    // A mark on the page: a reload would remove it.
    await page.evaluate('window.notReloaded = true');
    const later = season.plus({ months: 4 }).set({ day: 12 });
    await page.evaluate(`location.hash = '#/calendar?view=dayGridMonth&date=${later.toISODate()}'`);
    await expect
      .poll(() => page.locator('.fc-toolbar-title').textContent())
      .toBe(later.setLocale('en').toFormat('LLLL yyyy'));
    expect(await page.getByTestId('mini-month').locator('h2').textContent()).toBe(
      later.setLocale('en').toFormat('LLLL yyyy'),
    );
    // The view too; and Back (the address before) moves it back.
    await page.evaluate(`location.hash = '#/calendar?view=timeGridWeek&date=${seasonDay(22)}'`);
    await expect
      .poll(() => page.locator('.fc-timeGridWeek-button').getAttribute('aria-pressed'))
      .toBe('true');
    await page.locator(`.fc-timegrid-col[data-date="${seasonDay(22)}"]`).waitFor();
    await page.locator('.fc-timegrid-event', { hasText: 'Winter Gala' }).waitFor();
    await page.goBack();
    await expect
      .poll(() => page.locator('.fc-toolbar-title').textContent())
      .toBe(later.setLocale('en').toFormat('LLLL yyyy'));
    expect(await page.evaluate('window.notReloaded')).toBe(true);
    await page.locator('.fc-dayGridMonth-button').click();
  });

  it('lists events from today by default, sorts them either way, and shows a multi-day event whole', async () => {
    await nav('Events');
    await page.locator('table.records').waitFor();
    const titles = () => page.locator('table.records tbody tr td:nth-child(2)').allTextContents();
    // From today: last season's concert is not listed until "From" is cleared.
    // Written the interface language's way, like the editor's dates (not the browser's mm/dd/yyyy).
    expect(await page.getByTestId('search-from').inputValue()).toBe(
      DateTime.now().setZone(ZONE).toFormat('dd/MM/yyyy'),
    );
    await expect
      .poll(titles)
      .toEqual([
        'Summer festival',
        'Choir rehearsal (full)',
        'Winter Gala with the City Orchestra and the Chamber Choir',
      ]);
    await page.getByTestId('search-order').selectOption({ label: 'Latest first' });
    await expect
      .poll(titles)
      .toEqual([
        'Winter Gala with the City Orchestra and the Chamber Choir',
        'Choir rehearsal (full)',
        'Summer festival',
      ]);
    await page.getByTestId('search-from').fill('');
    await expect.poll(async () => (await titles()).at(-1)).toBe('Last season closing concert');
    await page.getByTestId('search-order').selectOption({ label: 'Soonest first' });
    await expect.poll(async () => (await titles())[0]).toBe('Last season closing concert');
    // A range: only what overlaps it (the festival's last day is enough).
    await page.getByTestId('search-from').fill(seasonDayTyped(5));
    await page.getByTestId('search-to').fill(seasonDayTyped(8));
    await expect.poll(titles).toEqual(['Summer festival', 'Choir rehearsal (full)']);
    const festival = page.locator('table.records tbody tr', { hasText: 'Summer festival' });
    const when = await festival.getByTestId('event-when').textContent();
    expect(when).toMatch(new RegExp(`\\b3\\b.*\\b5\\b`));
    expect(when).toContain(String(season.year));
    await screenshot(page, 'place-04-events-range');
  });

  it('shows the trash and restores an event (as a draft), a venue and an organizer from it', async () => {
    const cinema = (await api('venues', { method: 'POST', json: { venue: 'Old cinema' } })).id;
    await api(`venues/${cinema}`, { method: 'DELETE' });
    const former = (await api('organizers', { method: 'POST', json: { organizer: 'Former choir' } })).id;
    await api(`organizers/${former}`, { method: 'DELETE' });
    await nav('Trash');
    await page.getByRole('heading', { name: 'Trash', exact: true }).waitFor();
    const trashedEvents = page.getByTestId('trash-events');
    await trashedEvents.getByText('Gala encore').waitFor();
    expect(await page.getByTestId('trash-venues').textContent()).toContain('Old cinema');
    expect(await page.getByTestId('trash-organizers').textContent()).toContain('Former choir');
    await screenshot(page, 'place-05-trash');

    await page.getByRole('button', { name: 'Restore Gala encore' }).click();
    await page.getByText('“Gala encore” restored as a draft').waitFor();
    const encore = (await seasonEvents()).find((event) => event.title === 'Gala encore')!;
    expect(encore.status).toBe('draft');
    await page.getByRole('button', { name: 'Restore Old cinema' }).click();
    await page.getByText('“Old cinema” restored.').waitFor();
    expect((await api(`venues/${cinema}`)).status).toBe('publish');
    await page.getByRole('button', { name: 'Restore Former choir' }).click();
    await page.getByText('“Former choir” restored.').waitFor();
    expect((await api(`organizers/${former}`)).status).toBe('publish');
    await page.getByTestId('trash-empty').waitFor();
    // Back on the calendar, the restored event shows again.
    await openSeasonMonth();
    await eventIn(seasonDay(23), 'Gala encore').waitFor();
  });

  it('warns before booking a venue twice at the same time, and saves only when told to', async () => {
    const book = async (title: string, from: string, to: string) => {
      await page.goto(`${origin}/#/events/new?startDate=${seasonDay(22)}&startTime=${from}&endTime=${to}`);
      await page.getByRole('heading', { name: 'New event' }).waitFor();
      await page.locator('#event-title').fill(title);
      await page.locator('#event-venue').selectOption({ label: 'Teatro Verdi — Trieste' });
      await page.getByTestId('save-event').click();
    };
    const titles = async () => (await seasonEvents()).map((event) => event.title);
    // 21:00-23:00 overlaps the gala (20:30-22:30) at the same venue.
    await book('Late rehearsal', '21:00', '23:00');
    const warning = page.getByRole('dialog', { name: 'This venue is already booked' });
    await warning.waitFor();
    expect(await warning.textContent()).toContain('Winter Gala with the City Orchestra');
    await screenshot(page, 'place-05-double-booking');
    await warning.getByRole('button', { name: 'Cancel' }).click();
    expect(await titles()).not.toContain('Late rehearsal');
    // Saving again asks again; "Save anyway" saves.
    await page.getByTestId('save-event').click();
    await warning.getByRole('button', { name: 'Save anyway' }).click();
    await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
    expect(await titles()).toContain('Late rehearsal');
    // Right after the gala (22:30) is not a clash: no question.
    await book('Cleaning', '23:00', '23:30');
    await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
    expect(await titles()).toContain('Cleaning');
  });

  it('shows the month while its events are slow to come, then the events; a refused load says so and Try again loads them', async () => {
    await openSeasonMonth();
    await nav('Events');
    await page.locator('table.records').waitFor();
    const gala = page.locator('.fc-event', { hasText: 'Winter Gala' }).first();
    // The calendar's one request for a range (GET calendar-desk/v1/calendar).
    const eventsApi = '**/wp-json/calendar-desk/v1/calendar?**';
    // The calendar asks for its first events before drawing, to draw the month once with them; when they are
    // late it does not wait for them: the grid comes first, saying it is loading.
    await page.route(eventsApi, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await route.continue();
    });
    await nav('Calendar');
    await page.locator('.fc-daygrid-body').waitFor({ timeout: 2500 });
    expect(await page.locator('.fc-toolbar-title').textContent()).toBe(monthTitle);
    expect(await gala.count()).toBe(0);
    expect(await page.locator('.loading-pill').count()).toBe(1);
    await gala.waitFor();
    await page.unroute(eventsApi);

    await nav('Events');
    await page.locator('table.records').waitFor();
    await page.route(eventsApi, (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): page',
          data: { status: 400 },
        }),
      }),
    );
    await nav('Calendar');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Invalid parameter(s): page');
    await page.unroute(eventsApi);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await gala.waitFor();
    expect(await alert.count()).toBe(0);
  });

  it('goes where the user asked when they leave the calendar before it has drawn (its address is not put back)', async () => {
    // The calendar writes its view and date into the address once FullCalendar has drawn. Here its events come
    // late (it draws without them after 250 ms) and the Settings screen's code later still, as on a busy machine:
    // the calendar draws while the user's way to Settings is under way.
    const eventsApi = '**/wp-json/calendar-desk/v1/calendar?**';
    const settingsCode = '**/assets/SettingsView-*.js';
    const late = (ms: number) => async (route: Route) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      await route.continue();
    };
    await page.route(eventsApi, late(1500));
    await page.route(settingsCode, late(1500));
    await page.goto(`${origin}/#/calendar`);
    await page.reload();
    await calendarShown(page);
    await nav('Settings');
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).hash).toBe('#/settings');
    await page.unroute(eventsApi);
    await page.unroute(settingsCode);
  });

  it('at 390 px wide: the calendar tools above the calendar, nothing wider than the window; no page errors', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openSeasonMonth();
    await screenshot(page, 'place-390-calendar');
    const overflow = await page.evaluate(
      '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
    );
    expect((overflow as number[])[0]).toBeLessThanOrEqual((overflow as number[])[1]);
    // The folded tools sit right above the calendar, without an empty band between them.
    const tools = (await page.locator('.calendar-tools > summary').boundingBox())!;
    const calendarBox = (await page.locator('.calendar-host').boundingBox())!;
    expect(calendarBox.y - (tools.y + tools.height)).toBeLessThan(40);
    // A phone's month marks the days; the tapped day's events are listed below it (test/e2e/phone-month).
    await page.locator(`.fc-daygrid-day[data-date="${seasonDay(22)}"]`).click();
    await page
      .getByTestId('day-list')
      .getByRole('button', { name: /Winter Gala/ })
      .click();
    await page.getByTestId('quick-view').waitFor();
    await screenshot(page, 'place-390-quick-view');
    // The editor's start and end (date, calendar button, time) stay inside their box on a phone.
    await page.getByTestId('quick-edit').click();
    await page.getByRole('heading', { name: 'Edit event' }).waitFor();
    const when = (await page.locator('fieldset.when').boundingBox())!;
    for (const part of ['#event-start-date', '#event-end-date', '[data-testid="end-time"]']) {
      const box = (await page.locator(part).boundingBox())!;
      expect(box.x + box.width, part).toBeLessThanOrEqual(when.x + when.width);
    }
    const endPicker = (await page.locator('#event-end-date + button').boundingBox())!;
    expect(endPicker.x + endPicker.width).toBeLessThanOrEqual(when.x + when.width);
    await screenshot(page, 'place-390-editor');
    await page.goBack();
    await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
    await nav('Trash');
    await page.getByRole('heading', { name: 'Trash', exact: true }).waitFor();
    await screenshot(page, 'place-390-trash');
    await nav('Events');
    await page.locator('table.records').waitFor();
    await screenshot(page, 'place-390-events');
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(problems).toEqual([]);
  });
});

/** Clicking an event opens its quick view; its Edit button the editor. */
async function openEditorFromQuickView() {
  await page.getByTestId('quick-view').waitFor();
  await page.getByTestId('quick-edit').click();
  await page.getByRole('heading', { name: 'Edit event' }).waitFor();
}
