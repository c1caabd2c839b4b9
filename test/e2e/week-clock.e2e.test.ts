import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import {
  axeFindings,
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
 * The week view on a 12-hour clock (an English interface on an American system), where a day's column is
 * narrow (a window of 1024 × 768) or an event is drawn beside another: an evening's times are shown whole
 * ("9:30 PM - 11:00 PM" was cut to "9:30 PM - 11:0" or "9:30 PM - 9:4"). `calendar-desk serve` (site zone
 * Europe/Rome), Chromium.
 */
const ZONE = 'Europe/Rome';
let app: E2eApp;
let signedIn: SignedInBrowser;
let page: Page;

/** The Wednesday and Thursday of the week two weeks from now. */
const week = DateTime.now().setZone(ZONE).startOf('week').plus({ weeks: 2 });
const wednesday = week.plus({ days: 2 }).toISODate()!;
const thursday = week.plus({ days: 3 }).toISODate()!;

const post = (json: Record<string, unknown>) =>
  callApi(app, `${EVENTS_API}/events`, { method: 'POST', json });

/** What the browser shows of an event's time: the text, whether it overflows its box, and its box's parent's. */
interface TimeBox {
  text: string;
  /** The time's own box: content wider or taller than the box is cut (overflow: hidden). */
  scrollWidth: number;
  clientWidth: number;
  scrollHeight: number;
  clientHeight: number;
  /** How far the time's box reaches past the event's box on the right (> 0: cut by the event). */
  pastEvent: number;
  /** On how many lines the first time ("9:30 PM") is drawn: 1 when it is whole on one line. */
  firstTimeLines: number;
  /** On how many lines the whole time is drawn. */
  lines: number;
}

function timeOf(title: string): Promise<TimeBox> {
  return page
    .locator('.fc-timegrid-event', { hasText: title })
    .locator('.fc-event-time')
    .evaluate((element) => {
      type Box = { right: number };
      type Shown = {
        textContent: string;
        scrollWidth: number;
        clientWidth: number;
        scrollHeight: number;
        clientHeight: number;
        firstChild: unknown;
        getBoundingClientRect(): Box;
        closest(selector: string): Shown;
      };
      const time = element as unknown as Shown;
      const event = time.closest('.fc-event-main');
      const doc = (globalThis as unknown as { document: { createRange(): never } }).document;
      const range = doc.createRange() as unknown as {
        setStart(node: unknown, offset: number): void;
        setEnd(node: unknown, offset: number): void;
        getClientRects(): { length: number };
      };
      /** On how many lines the first `length` characters are drawn. */
      // The clock times drawn (each in its span; a narrow event draws the short ones instead of the long ones).
      const clocks = [
        ...(time as unknown as { querySelectorAll(s: string): Shown[] }).querySelectorAll(
          '.event-clock > span',
        ),
      ].filter((clock) => (clock as unknown as { checkVisibility(): boolean }).checkVisibility());
      /** The distinct tops of the characters' boxes of these clocks: the lines they are drawn on. */
      const tops = (shown: Shown[]) => {
        const found = new Set<number>();
        for (const clock of shown) {
          for (let at = 0; at < clock.textContent.length; at += 1) {
            range.setStart(clock.firstChild, at);
            range.setEnd(clock.firstChild, at + 1);
            const box = Array.from(
              (
                range as unknown as { getClientRects(): ArrayLike<{ top: number; width: number }> }
              ).getClientRects(),
            ).at(-1);
            if (box && box.width > 0) found.add(Math.round(box.top));
          }
        }
        return found.size;
      };
      return {
        text: clocks.map((clock) => clock.textContent).join(' - '),
        scrollWidth: time.scrollWidth,
        clientWidth: time.clientWidth,
        scrollHeight: time.scrollHeight,
        clientHeight: time.clientHeight,
        pastEvent: time.getBoundingClientRect().right - event.getBoundingClientRect().right,
        firstTimeLines: tops(clocks.slice(0, 1)),
        lines: tops(clocks),
      };
    });
}

beforeAll(async () => {
  app = await startApp('week-clock', ['--port', '0', '--timezone', ZONE]);
  // Alone in its day; and on the next day beside a quiz it overlaps.
  await post({ title: 'Late jazz night', start_date: `${wednesday} 21:30`, end_date: `${wednesday} 23:00` });
  await post({ title: 'Pub quiz', start_date: `${thursday} 19:30`, end_date: `${thursday} 21:45` });
  await post({ title: 'Jazz jam', start_date: `${thursday} 21:30`, end_date: `${thursday} 23:00` });
  signedIn = await signIn(app, {
    context: { locale: 'en-US', viewport: { width: 1024, height: 768 } },
    timeout: 10_000,
  });
  page = signedIn.page;
}, 120_000);

afterAll(() => stopApp(app, signedIn));

describe('the week view on a 12-hour clock', { timeout: 60_000 }, () => {
  it('shows "9:30 PM" whole in a narrow day column and beside another event, the end on the next line when it does not fit', async () => {
    await page.goto(`${app.origin}/#/calendar?view=timeGridWeek&date=${wednesday}`);
    const late = page.locator('.fc-timegrid-event', { hasText: 'Late jazz night' });
    await late.waitFor();
    await late.scrollIntoViewIfNeeded();
    await screenshot(page, 'week-clock-1024');

    const alone = await timeOf('Late jazz night');
    expect(alone.text).toBe('9:30 PM - 11:00 PM');
    expect(alone.scrollWidth).toBeLessThanOrEqual(alone.clientWidth);
    expect(alone.scrollHeight).toBeLessThanOrEqual(alone.clientHeight);
    expect(alone.pastEvent).toBeLessThanOrEqual(0);
    expect(alone.firstTimeLines).toBe(1);
    // The column is narrower than the whole time on one line (the case this is about): the end goes below.
    expect(alone.lines).toBe(2);

    // At 1440 × 900 an event beside another (FullCalendar draws it over the right part of the column).
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect.poll(async () => (await timeOf('Jazz jam')).clientWidth).toBeGreaterThan(45);
    await late.scrollIntoViewIfNeeded();
    await screenshot(page, 'week-clock-1440');
    for (const title of ['Late jazz night', 'Jazz jam', 'Pub quiz']) {
      const time = await timeOf(title);
      expect(time.text, title).toMatch(/^(9:30 PM - 11:00 PM|7:30 PM - 9:45 PM)$/);
      expect(time.scrollWidth, title).toBeLessThanOrEqual(time.clientWidth);
      expect(time.scrollHeight, title).toBeLessThanOrEqual(time.clientHeight);
      expect(time.pastEvent, title).toBeLessThanOrEqual(0);
      expect(time.firstTimeLines, title).toBe(1);
    }
    expect(await axeFindings(page)).toEqual([]);
    expect(signedIn.problems).toEqual([]);
  });
});
