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
 * The week view where its day columns are narrow (issue 27): on a phone (390 px) titles broke mid-word
 * ("Choir rehea rsal"), and beside the calendar's tools in a narrow window an event drawn beside another had
 * its times cut ("11:00 P"). Every event's texts are measured: none overflows its box, every clock time is on
 * one line, and a word breaks only where a hyphen is drawn. `calendar-desk serve` (site zone Europe/Rome),
 * Chromium on a 12-hour clock (en-US).
 */
const ZONE = 'Europe/Rome';
let app: E2eApp;
let signedIn: SignedInBrowser;
let page: Page;
const week = DateTime.now().setZone(ZONE).startOf('week').plus({ weeks: 2 });
const wednesday = week.plus({ days: 2 }).toISODate()!;
const thursday = week.plus({ days: 3 }).toISODate()!;
const TITLES = ['Choir rehearsal', 'Christmas Concert', 'Pub quiz', 'Jazz jam'];

const post = (json: Record<string, unknown>) =>
  callApi(app, `${EVENTS_API}/events`, { method: 'POST', json });

/** How an event's texts are drawn: what overflows its box, and the words and clocks drawn on several lines. */
interface Drawn {
  title: string;
  time: string;
  /** The width of the event's content box. */
  width: number;
  /** Texts wider than their box (cut), as "what: scrollWidth > clientWidth". */
  overflowing: string[];
  /** Words (between spaces and soft hyphens) or clock times drawn on more than one line. */
  broken: string[];
}

function drawnEvents(): Promise<Drawn[]> {
  return page.locator('.fc-timegrid-event').evaluateAll((events) => {
    type El = {
      textContent: string;
      scrollWidth: number;
      clientWidth: number;
      firstChild: unknown;
      getBoundingClientRect(): { left: number; right: number };
      querySelector(selector: string): El | null;
      querySelectorAll(selector: string): El[];
      checkVisibility(): boolean;
    };
    const doc = (globalThis as unknown as { document: { createRange(): unknown } }).document;
    /** On how many lines the characters [start, end) of a text node are drawn (the distinct tops of their boxes). */
    const linesOf = (node: unknown, start: number, end: number) => {
      const range = doc.createRange() as {
        setStart(n: unknown, o: number): void;
        setEnd(n: unknown, o: number): void;
        getClientRects(): ArrayLike<{ top: number; width: number }>;
      };
      const tops = new Set<number>();
      for (let at = start; at < end; at += 1) {
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        // The character's own box is the last (after a break, one for the line before comes first).
        const box = Array.from(range.getClientRects()).at(-1);
        if (box && box.width > 0) tops.add(Math.round(box.top));
      }
      return tops.size;
    };
    return (events as unknown as El[]).map((event) => {
      const main = event.querySelector('.fc-event-main')!;
      const title = event.querySelector('.fc-event-title')!;
      const time = event.querySelector('.fc-event-time')!;
      const overflowing: string[] = [];
      const broken: string[] = [];
      for (const [what, box] of [
        ['title', title],
        ['time', time],
      ] as const) {
        if (box.scrollWidth > box.clientWidth)
          overflowing.push(`${what}: ${box.scrollWidth} > ${box.clientWidth}`);
      }
      const mainBox = main.getBoundingClientRect();
      for (const clock of time.querySelectorAll('.event-clock > span')) {
        if (!clock.checkVisibility()) continue;
        const box = clock.getBoundingClientRect();
        if (box.right > mainBox.right + 0.5) overflowing.push(`clock ${clock.textContent} past the event`);
        if (linesOf(clock.firstChild, 0, clock.textContent.length) > 1) broken.push(clock.textContent);
      }
      const text = title.textContent;
      for (const word of text.matchAll(/[^\s\u00AD]+/g)) {
        if (linesOf(title.firstChild, word.index, word.index + word[0].length) > 1) broken.push(word[0]);
      }
      return {
        // The content box's width: what the container queries of the event read.
        width: (() => {
          const style = (
            globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }
          ).getComputedStyle(main);
          return main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        })(),
        title: text.replace(/\u00AD/g, ''),
        time: [...time.querySelectorAll('.event-clock > span')]
          .filter((clock) => clock.checkVisibility())
          .map((clock) => clock.textContent)
          .join(' - '),
        overflowing,
        broken,
      };
    });
  }) as Promise<Drawn[]>;
}

async function showWeek(width: number, height: number) {
  await page.setViewportSize({ width, height });
  await page.goto(`${app.origin}/#/calendar?view=timeGridWeek&date=${wednesday}`);
  const jam = page.locator('.fc-timegrid-event', { hasText: 'Jazz jam' });
  await jam.waitFor();
  await jam.scrollIntoViewIfNeeded();
}

beforeAll(async () => {
  app = await startApp('week-narrow', ['--port', '0', '--timezone', ZONE]);
  await post({ title: 'Choir rehearsal', start_date: `${wednesday} 19:30`, end_date: `${wednesday} 21:30` });
  await post({ title: 'Christmas Concert', start_date: `${thursday} 18:00`, end_date: `${thursday} 20:00` });
  // Beside each other on Thursday evening.
  await post({ title: 'Pub quiz', start_date: `${thursday} 21:00`, end_date: `${thursday} 23:00` });
  await post({ title: 'Jazz jam', start_date: `${thursday} 21:30`, end_date: `${thursday} 23:00` });
  signedIn = await signIn(app, {
    context: { locale: 'en-US', viewport: { width: 1280, height: 800 } },
    timeout: 10_000,
  });
  page = signedIn.page;
}, 120_000);
afterAll(() => stopApp(app, signedIn));

describe('the week view in narrow columns', { timeout: 60_000 }, () => {
  for (const [width, height, where] of [
    [390, 844, 'on a phone'],
    [1024, 768, 'beside the tools in a narrow window'],
    [960, 700, 'beside the tools in a narrower window'],
    [1280, 800, 'in a usual window'],
  ] as const) {
    it(`draws whole words and whole clock times ${where} (${width} px)`, async () => {
      await showWeek(width, height);
      await screenshot(page, `week-narrow-${width}`);
      const drawn = await drawnEvents();
      expect(drawn.map((event) => event.title).sort()).toEqual([...TITLES].sort());
      for (const event of drawn) {
        expect(event.overflowing, event.title).toEqual([]);
        expect(event.broken, event.title).toEqual([]);
        // Both ends of the time are shown, each whole; only an event narrower than any clock shows its title alone.
        if (event.width > 24) {
          expect(event.time, event.title).toMatch(/^\d{1,2}(:\d\d)?\s?(PM|p) - \d{1,2}(:\d\d)?\s?(PM|p)$/);
        } else expect(event.time, event.title).toBe('');
      }
      expect(await axeFindings(page)).toEqual([]);
      expect(signedIn.problems).toEqual([]);
    });
  }
});
