import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import {
  callApi,
  EVENTS_API,
  navigateTo,
  screenshot,
  settledBox,
  signIn,
  startApp,
  stopApp,
  type E2eApp,
  type SignedInBrowser,
} from './browser';

/**
 * A choir secretary's season of weekly rehearsals, in Chromium against `calendar-desk serve` (site zone
 * Europe/Rome): the series made once from the editor's Repeat control, one rehearsal changed alone, the whole
 * series changed, an occurrence dragged (and put back by Cancel), and an event duplicated.
 */
const ZONE = 'Europe/Rome';
let app: E2eApp;
let signedIn: SignedInBrowser;
let page: Page;
let problems: string[];
let origin: string;

/** The first Tuesday two months from now: the series' eight Tuesdays run over two or three months. */
const monthStart = DateTime.now().setZone(ZONE).startOf('month').plus({ months: 2 });
const firstTuesday = monthStart.plus({ days: (2 - monthStart.weekday + 7) % 7 });
const tuesdays = Array.from({ length: 8 }, (_, week) => firstTuesday.plus({ weeks: week }).toISODate()!);
const TITLE = 'Choir rehearsal';

type Json = Record<string, never>;
interface EventJson {
  id: number;
  title: string;
  start_date: string;
  end_date: string;
  recurrence?: string[];
  recurrence_id?: string | null;
}

const api = (path: string) => callApi<Json>(app, `${EVENTS_API}/${path}`);

/** Every event of the season with "Choir" in its title, soonest first. */
async function rehearsals(): Promise<EventJson[]> {
  const last = DateTime.fromISO(tuesdays[7]).plus({ days: 7 }).toISODate();
  const body = await api(
    `events?start_date=${tuesdays[0]}&end_date=${last}&status=any&search=Choir&per_page=50`,
  );
  return body.events as unknown as EventJson[];
}

const on = (list: EventJson[], date: string) => list.filter((event) => event.start_date.startsWith(date));

const nav = (label: string) => navigateTo(page, label);

/** The month view of the series' first month (toolbar arrows from today). */
async function openFirstMonth() {
  await nav('Calendar');
  await page.locator('.fc-dayGridMonth-button').click();
  const button = page.locator('.fc-today-button');
  if (await button.isEnabled()) await button.click();
  for (let step = 0; step < 2; step += 1) await page.locator('.fc-next-button').click();
  await expect
    .poll(() => page.locator('.fc-toolbar-title').textContent())
    .toBe(firstTuesday.setLocale('en').toFormat('LLLL yyyy'));
}

const eventOn = (date: string, title = TITLE) =>
  page.locator(`.fc-daygrid-day[data-date="${date}"] .fc-event`, { hasText: title });

/** The rehearsals drawn in the month shown, on its own days (not the neighbour months' days it also shows). */
async function drawnThisMonth(): Promise<string[]> {
  await page.locator('.fc-daygrid-body').waitFor();
  await page.locator('.loading-pill').waitFor({ state: 'hidden' });
  const cells = page.locator('.fc-daygrid-day:not(.fc-day-other)', {
    has: page.locator('.fc-event', { hasText: TITLE }),
  });
  return cells.evaluateAll((elements) =>
    elements.map((element) => (element as unknown as { dataset: { date: string } }).dataset.date),
  );
}

async function openEditorOf(date: string) {
  await eventOn(date).first().click();
  await page.getByTestId('quick-edit').click();
  await page.getByRole('heading', { name: 'Edit event' }).waitFor();
}

async function dragEvent(from: string, to: string) {
  const source = await settledBox(eventOn(from).first());
  const target = await settledBox(page.locator(`.fc-daygrid-day[data-date="${to}"] .fc-daygrid-day-frame`));
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(source.x + source.width / 2 + 5, source.y + source.height / 2 + 5, { steps: 5 });
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 15 });
  await page.mouse.up();
}

beforeAll(async () => {
  app = await startApp('series', ['--port', '0', '--timezone', ZONE]);
  ({ origin } = app);
  signedIn = await signIn(app, {
    timeout: 10_000,
    ready: (signedInPage) => signedInPage.getByRole('heading', { name: 'Calendar', exact: true }).waitFor(),
  });
  ({ page, problems } = signedIn);
}, 120_000);

afterAll(() => stopApp(app, signedIn));

describe('a weekly series from the editor', { timeout: 90_000 }, () => {
  it('creates eight Tuesday rehearsals at 19:30 with the Repeat control, and the calendar shows all eight', async () => {
    // As a user does: a click on the first Tuesday in the month view, then the times.
    await openFirstMonth();
    await page.locator(`.fc-daygrid-day[data-date="${tuesdays[0]}"] .fc-daygrid-day-frame`).click();
    await page.getByRole('heading', { name: 'New event' }).waitFor();
    await page.getByTestId('start-time').fill('19:30');
    await page.getByTestId('end-time').fill('21:30');
    await page.locator('#event-title').fill(TITLE);
    await page.getByTestId('repeat-frequency').selectOption('weekly');
    // A weekly rule starts on the start's own weekday.
    expect(await page.getByTestId('repeat-day-TU').isChecked()).toBe(true);
    await page.getByTestId('repeat-ends-count').check();
    await page.getByTestId('repeat-count').fill('8');
    await expect
      .poll(() => page.getByTestId('repeat-summary').textContent())
      .toBe('Every Tuesday at 19:30, 8 times');
    await page.getByTestId('repeat').scrollIntoViewIfNeeded();
    await screenshot(page, 'series-1440-repeat');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('repeat').scrollIntoViewIfNeeded();
    await screenshot(page, 'series-390-repeat');
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.getByTestId('save-event').click();
    await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
    const created = await rehearsals();
    expect(created.map((event) => event.start_date)).toEqual(tuesdays.map((day) => `${day} 19:30:00`));
    expect(created.every((event) => event.title === TITLE)).toBe(true);
    expect(created[0].recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=8;BYDAY=TU']);

    await openFirstMonth();
    const drawn = await drawnThisMonth();
    await page.locator('.fc-next-button').click();
    drawn.push(...(await drawnThisMonth()));
    if (drawn.length < 8) {
      await page.locator('.fc-next-button').click();
      drawn.push(...(await drawnThisMonth()));
    }
    expect(drawn).toEqual(tuesdays);
  });

  it('changes one rehearsal with "This event": the others keep their title', async () => {
    await openFirstMonth();
    // The quick view says how the event repeats.
    await eventOn(tuesdays[2]).first().click();
    expect(await page.getByTestId('quick-repeats').textContent()).toBe('Every Tuesday at 19:30, 8 times');
    await page.keyboard.press('Escape');
    await openEditorOf(tuesdays[2]);
    // An occurrence shows its series' rule.
    expect(await page.getByTestId('repeat-summary').textContent()).toBe('Every Tuesday at 19:30, 8 times');
    await page.locator('#event-title').fill('Choir sectional');
    await page.getByTestId('save-event').click();
    const dialog = page.getByRole('dialog', { name: 'Save a repeating event' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('This event', { exact: true }).isChecked()).toBe(true);
    await screenshot(page, 'series-1440-scope');
    await dialog.getByTestId('scope-confirm').click();
    await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
    const after = await rehearsals();
    expect(on(after, tuesdays[2]).map((event) => event.title)).toEqual(['Choir sectional']);
    expect(after.filter((event) => event.title === TITLE)).toHaveLength(7);
  });

  it('changes the series with "All events": every rehearsal but the one changed alone follows', async () => {
    await openFirstMonth();
    await openEditorOf(tuesdays[1]);
    await page.locator('#event-title').fill(`${TITLE}, room 2`);
    await page.getByTestId('save-event').click();
    const dialog = page.getByRole('dialog', { name: 'Save a repeating event' });
    await dialog.getByLabel('All events', { exact: true }).check();
    await dialog.getByTestId('scope-confirm').click();
    await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
    await expect
      .poll(async () => (await rehearsals()).map((event) => event.title))
      .toEqual(tuesdays.map((_, week) => (week === 2 ? 'Choir sectional' : `${TITLE}, room 2`)));
  });

  it('asks the scope when an occurrence is dragged: Cancel puts it back, "This event" moves it alone', async () => {
    await openFirstMonth();
    const from = tuesdays[3];
    const to = DateTime.fromISO(from).plus({ days: 1 }).toISODate()!;
    // Week 4's rehearsal is on the 28th at the latest: the day after is in the month grid shown.
    await dragEvent(from, to);
    const dialog = page.getByRole('dialog', { name: 'Move a repeating event' });
    await dialog.waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'series-390-scope');
    await page.setViewportSize({ width: 1440, height: 900 });
    await dialog.getByTestId('scope-cancel').click();
    await eventOn(from).waitFor();
    expect(await eventOn(to).count()).toBe(0);
    expect(on(await rehearsals(), from)).toHaveLength(1);

    await dragEvent(from, to);
    await dialog.waitFor();
    await dialog.getByTestId('scope-confirm').click();
    await page.getByText(`“${TITLE}, room 2” rescheduled.`).waitFor();
    await eventOn(to).waitFor();
    const after = await rehearsals();
    expect(on(after, to).map((event) => event.start_date)).toEqual([`${to} 19:30:00`]);
    expect(on(after, from)).toEqual([]);
    // The others stay on their Tuesdays.
    expect(after.filter((event) => event.start_date.startsWith(tuesdays[4]))).toHaveLength(1);
  });

  it('duplicates a rehearsal as one new event, saved only when the user saves it', async () => {
    await openFirstMonth();
    await openEditorOf(tuesdays[0]);
    await page.getByTestId('duplicate-event').click();
    await page.getByRole('heading', { name: 'New event' }).waitFor();
    expect(await page.locator('#event-title').inputValue()).toBe(`${TITLE}, room 2 (copy)`);
    // A copy is a single event: it does not repeat until told to.
    expect(await page.getByTestId('repeat-frequency').inputValue()).toBe('never');
    // Nothing is created until saved.
    expect(await rehearsals()).toHaveLength(8);
    await page.getByTestId('save-event').click();
    await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
    const copies = (await rehearsals()).filter((event) => event.title.endsWith('(copy)'));
    expect(copies).toEqual([
      expect.objectContaining({
        start_date: `${tuesdays[0]} 19:30:00`,
        end_date: `${tuesdays[0]} 21:30:00`,
        recurrence: [],
        recurrence_id: null,
      }),
    ]);
  });

  it('saves a new rule for the whole series: "This event" is not offered, the series ends after six', async () => {
    await openFirstMonth();
    await openEditorOf(tuesdays[0]);
    await page.getByTestId('repeat-count').fill('6');
    await expect
      .poll(() => page.getByTestId('repeat-summary').textContent())
      .toBe('Every Tuesday at 19:30, 6 times');
    await page.getByTestId('save-event').click();
    const dialog = page.getByRole('dialog', { name: 'Save a repeating event' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('This event', { exact: true }).isDisabled()).toBe(true);
    expect(await dialog.getByLabel('All events', { exact: true }).isChecked()).toBe(true);
    await dialog.getByTestId('scope-confirm').click();
    await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
    const series = (await rehearsals()).filter((event) => event.recurrence_id !== null);
    expect(series[0].recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=TU']);
    // The rehearsal changed alone and the one moved alone keep their changes.
    expect(series.map((event) => event.start_date.slice(0, 10))).toEqual([
      tuesdays[0],
      tuesdays[1],
      tuesdays[2],
      DateTime.fromISO(tuesdays[3]).plus({ days: 1 }).toISODate(),
      tuesdays[4],
      tuesdays[5],
    ]);
    expect(on(series, tuesdays[2])[0].title).toBe('Choir sectional');
  });

  it('deletes "this and following" rehearsals from the editor, after asking', async () => {
    await openFirstMonth();
    if (tuesdays[4].slice(0, 7) !== tuesdays[0].slice(0, 7)) await page.locator('.fc-next-button').click();
    await openEditorOf(tuesdays[4]);
    await page.getByTestId('delete-event').click();
    const dialog = page.getByRole('dialog', { name: 'Delete a repeating event' });
    await dialog.getByLabel('This and following events', { exact: true }).check();
    await dialog.getByTestId('scope-confirm').click();
    await page
      .getByText(`“${TITLE}, room 2” and the following events of its series moved to the trash.`)
      .waitFor();
    const series = (await rehearsals()).filter((event) => event.recurrence_id !== null);
    expect(series.map((event) => event.start_date.slice(0, 10))).toEqual([
      tuesdays[0],
      tuesdays[1],
      tuesdays[2],
      DateTime.fromISO(tuesdays[3]).plus({ days: 1 }).toISODate(),
    ]);
  });

  it('a new event: Weekly takes the weekday of the start typed before it, and follows a start typed after it', async () => {
    // Four months ahead, on the day after today's weekday: a weekly rule on today's weekday would show.
    const today = DateTime.now().setZone(ZONE);
    const after = today.startOf('month').plus({ months: 4 });
    const first = after.plus({ days: ((today.weekday % 7) + 1 - after.weekday + 7) % 7 });
    const moved = first.plus({ days: 2 });
    const code = (day: DateTime) => ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'][day.weekday - 1];
    const weekday = (day: DateTime) => day.setLocale('en').toFormat('cccc');
    /** Types into a field as a person does: click, select what is there, type, leave it with Tab. */
    const typeInto = async (selector: string, text: string) => {
      await page.locator(selector).click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type(text, { delay: 20 });
      await page.keyboard.press('Tab');
    };
    const ticked = () =>
      page
        .locator('.repeat-days input:checked')
        .evaluateAll((boxes) =>
          boxes.map((box) => (box as unknown as { dataset: { testid: string } }).dataset.testid),
        );

    await page.getByRole('link', { name: 'New event' }).click();
    await page.getByRole('heading', { name: 'New event' }).waitFor();
    await typeInto('#event-title', 'Book club');
    await typeInto('#event-start-date', first.toFormat('dd/MM/yyyy'));
    await typeInto('[data-testid="start-time"]', '19:30');
    await page.getByTestId('repeat-frequency').selectOption('weekly');
    expect(await ticked()).toEqual([`repeat-day-${code(first)}`]);
    expect(await page.getByTestId('repeat-summary').textContent()).toBe(`Every ${weekday(first)} at 19:30`);

    // The start typed again after choosing Weekly: the day moves with it.
    await typeInto('#event-start-date', moved.toFormat('dd/MM/yyyy'));
    await expect.poll(ticked).toEqual([`repeat-day-${code(moved)}`]);
    expect(await page.getByTestId('repeat-summary').textContent()).toBe(`Every ${weekday(moved)} at 19:30`);
    await page.getByTestId('repeat-ends-count').check();
    await typeInto('[data-testid="repeat-count"]', '3');
    await page.getByTestId('repeat').scrollIntoViewIfNeeded();
    await screenshot(page, 'series-1440-repeat-typed-start');

    // Saved: the calendar shows the month of the new series, not the month it showed before.
    await page.getByTestId('save-event').click();
    await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
    await expect
      .poll(() => page.locator('.fc-toolbar-title').textContent())
      .toBe(moved.setLocale('en').toFormat('LLLL yyyy'));
    await page
      .locator(`.fc-daygrid-day[data-date="${moved.toISODate()}"] .fc-event`, { hasText: 'Book club' })
      .waitFor();
    expect(page.url()).toContain(`date=${moved.toISODate()}`);
    const [club] = (
      await api(`events?start_date=${moved.toISODate()}&end_date=${moved.toISODate()}&search=Book`)
    ).events as unknown as EventJson[];
    expect(club).toMatchObject({
      start_date: `${moved.toISODate()} 19:30:00`,
      recurrence: [`RRULE:FREQ=WEEKLY;COUNT=3;BYDAY=${code(moved)}`],
    });
  });

  it('says the rule in Polish and Italian', async () => {
    const [head] = await rehearsals();
    const summaries: Record<string, string> = {};
    for (const language of ['pl', 'it']) {
      await page.goto(`${origin}/#/settings`);
      await page.getByTestId('ui-language').selectOption(language);
      await page.goto(`${origin}/#/events/${head.id}`);
      await page.getByTestId('repeat-summary').scrollIntoViewIfNeeded();
      summaries[language] = (await page.getByTestId('repeat-summary').textContent()) ?? '';
      await screenshot(page, `series-1440-repeat-${language}`);
    }
    expect(summaries.pl).toMatch(/^Co tydzień we wtorek o 19:30/);
    expect(summaries.it).toMatch(/^Ogni martedì alle 19:30/);
    expect(problems).toEqual([]);
  });
});
