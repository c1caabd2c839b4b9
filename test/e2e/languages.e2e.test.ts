import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  axeFindings,
  freshSignInLink,
  launchChromium,
  screenshot,
  startApp,
  stopApp,
  watchProblems,
  type E2eApp,
} from './browser';

/**
 * The interface in each of the seven languages of `ml_language`, chosen from the browser's language at first
 * start (no choice saved): the month view and the editor with month and day names, dates and times in the
 * language's forms, and axe clean. `calendar-desk serve` (site zone Europe/Rome), Chromium.
 */
const ZONE = 'Europe/Rome';
/** A Tuesday: the event's day. */
const DAY = '2027-03-09';

type InterfaceLanguage = 'cs' | 'en' | 'fr' | 'de' | 'it' | 'pl' | 'es';

interface Expected {
  /** The browser's language (Chromium's `navigator.languages`). */
  browser: string;
  /** The calendar's heading, the main navigation's name and its Settings link, the editor's heading. */
  calendar: string;
  navigation: string;
  settings: string;
  editor: string;
  /** Weekly, in the Repeat choices. */
  weeklyChoice: string;
  /** The month's title, as the language writes it. */
  month: string;
  /** The first column (Monday, the week's first day in all seven) as the language abbreviates it. */
  monday: RegExp;
  today: string;
  /** The previous-month button's name (FullCalendar's hint, what a screen reader says). */
  previous: string;
  /** The event's start date and time in the editor's fields. */
  date: string;
  time: string;
  /** The Repeat summary once Weekly is chosen. */
  weekly: string;
}

const LANGUAGES: Record<InterfaceLanguage, Expected> = {
  cs: {
    previous: 'Předchozí měsíc',
    calendar: 'Kalendář',
    navigation: 'Hlavní nabídka',
    settings: 'Nastavení',
    editor: 'Upravit událost',
    weeklyChoice: 'Týdně',
    browser: 'cs-CZ',
    month: 'březen 2027',
    monday: /^po/i,
    today: 'Dnes',
    date: '09. 03. 2027',
    time: '19:30',
    weekly: 'Každý týden v úterý v 19:30',
  },
  en: {
    previous: 'Previous month',
    calendar: 'Calendar',
    navigation: 'Main',
    settings: 'Settings',
    editor: 'Edit event',
    weeklyChoice: 'Weekly',
    browser: 'en-GB',
    month: 'March 2027',
    monday: /^mon/i,
    today: 'today',
    date: '09/03/2027',
    time: '19:30',
    weekly: 'Every Tuesday at 19:30',
  },
  fr: {
    previous: 'Mois précédent',
    calendar: 'Calendrier',
    navigation: 'Principal',
    settings: 'Réglages',
    editor: 'Modifier l’événement',
    weeklyChoice: 'Toutes les semaines',
    browser: 'fr-FR',
    month: 'mars 2027',
    monday: /^lun/i,
    today: "Aujourd'hui",
    date: '09/03/2027',
    time: '19:30',
    weekly: 'Tous les mardis à 19:30',
  },
  de: {
    previous: 'Vorheriger Monat',
    calendar: 'Kalender',
    navigation: 'Hauptmenü',
    settings: 'Einstellungen',
    editor: 'Veranstaltung bearbeiten',
    weeklyChoice: 'Wöchentlich',
    browser: 'de-DE',
    month: 'März 2027',
    monday: /^mo/i,
    today: 'Heute',
    date: '09.03.2027',
    time: '19:30',
    weekly: 'Jeden Dienstag um 19:30 Uhr',
  },
  it: {
    previous: 'Mese precedente',
    calendar: 'Calendario',
    navigation: 'Principale',
    settings: 'Impostazioni',
    editor: 'Modifica evento',
    weeklyChoice: 'Ogni settimana',
    browser: 'it-IT',
    month: 'marzo 2027',
    monday: /^lun/i,
    today: 'Oggi',
    date: '09/03/2027',
    time: '19:30',
    weekly: 'Ogni martedì alle 19:30',
  },
  pl: {
    previous: 'Poprzedni miesiąc',
    calendar: 'Kalendarz',
    navigation: 'Główne',
    settings: 'Ustawienia',
    editor: 'Edycja wydarzenia',
    weeklyChoice: 'Co tydzień',
    browser: 'pl-PL',
    month: 'marzec 2027',
    monday: /^pon/i,
    today: 'Dziś',
    date: '09.03.2027',
    time: '19:30',
    weekly: 'Co tydzień we wtorek o 19:30',
  },
  es: {
    previous: 'Mes anterior',
    calendar: 'Calendario',
    navigation: 'Principal',
    settings: 'Ajustes',
    editor: 'Editar evento',
    weeklyChoice: 'Cada semana',
    browser: 'es-ES',
    month: 'marzo de 2027',
    monday: /^lun/i,
    today: 'Hoy',
    date: '09/03/2027',
    time: '19:30',
    weekly: 'Todos los martes a las 19:30',
  },
};

let app: E2eApp;
let browser: Browser;
let eventId: number;

beforeAll(async () => {
  app = await startApp('languages', ['--port', '0', '--timezone', ZONE]);
  const response = await fetch(`${app.origin}/wp-json/cal/events/v1/events`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${app.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: 'Choir concert', start_date: `${DAY} 19:30`, end_date: `${DAY} 21:00` }),
  });
  if (!response.ok) throw new Error(`POST events: ${await response.text()}`);
  eventId = ((await response.json()) as { id: number }).id;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stopApp(app, undefined);
});

describe(
  'the interface in each language, chosen from the browser at first start',
  { timeout: 90_000 },
  () => {
    it.each(Object.keys(LANGUAGES) as InterfaceLanguage[])(
      '%s: the month view and the editor speak it, with its dates and times',
      async (language) => {
        const expected = LANGUAGES[language];
        // A browser whose language is this one and that never chose one here (a fresh profile).
        const context = await browser.newContext({
          viewport: { width: 1280, height: 860 },
          locale: expected.browser,
          timezoneId: ZONE,
        });
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        const problems = watchProblems(page);
        try {
          await page.goto(await freshSignInLink(app.origin, app.token));
          await page.waitForURL((url) => !url.hash.startsWith('#/signin'));
          // Signing in ends on the calendar: once there, go on (else it may undo the next navigation).
          await page.locator('.fc-view').waitFor();
          expect(await page.evaluate('navigator.language')).toBe(expected.browser);

          await page.goto(`${app.origin}/#/calendar?view=dayGridMonth&date=${DAY}`);
          const event = page.locator('.fc-daygrid-event', { hasText: 'Choir concert' });
          await event.waitFor();
          expect(await page.locator('html').getAttribute('lang')).toBe(language);
          await page.getByRole('heading', { level: 1, name: expected.calendar, exact: true }).waitFor();
          await page
            .getByRole('navigation', { name: expected.navigation })
            .getByRole('link', { name: expected.settings })
            .waitFor();
          expect(await page.locator('.fc-toolbar-title').textContent()).toBe(expected.month);
          expect((await page.locator('.fc-col-header-cell').first().textContent())?.trim()).toMatch(
            expected.monday,
          );
          expect((await page.locator('.fc-today-button').textContent())?.trim()).toBe(expected.today);
          expect(await page.locator('.fc-prev-button').getAttribute('title')).toBe(expected.previous);
          expect(await event.locator('.fc-event-time').textContent()).toBe(expected.time);
          await screenshot(page, `language-${language}-month`);
          expect(await axeFindings(page)).toEqual([]);

          await page.goto(`${app.origin}/#/events/${eventId}`);
          await page.getByRole('heading', { level: 1, name: expected.editor }).waitFor();
          await expect.poll(() => page.locator('#event-start-date').inputValue()).toBe(expected.date);
          expect(await page.getByTestId('start-time').inputValue()).toBe(expected.time);
          await page.getByTestId('repeat-frequency').selectOption('weekly');
          await expect.poll(() => page.getByTestId('repeat-summary').textContent()).toBe(expected.weekly);
          expect(await page.getByTestId('repeat-frequency').locator('option:checked').textContent()).toBe(
            expected.weeklyChoice,
          );
          await screenshot(page, `language-${language}-editor`);
          expect(await axeFindings(page)).toEqual([]);
          expect(problems).toEqual([]);
        } finally {
          await context.close();
        }
      },
    );

    it("keeps a language chosen in Settings over the browser's at the next start", async () => {
      const context = await browser.newContext({ locale: 'de-DE', timezoneId: ZONE });
      const page = await context.newPage();
      try {
        await page.goto(await freshSignInLink(app.origin, app.token));
        await page.waitForURL((url) => !url.hash.startsWith('#/signin'));
        // Signing in ends on the calendar: once there, go on (else it may undo the next navigation).
        await page.locator('.fc-view').waitFor();
        await page.goto(`${app.origin}/#/settings`);
        await page.getByRole('heading', { level: 1, name: LANGUAGES.de.settings }).waitFor();
        // Each language is offered in its own words.
        expect(await page.getByTestId('ui-language').locator('option').allTextContents()).toEqual([
          'Čeština',
          'English',
          'Français',
          'Deutsch',
          'Italiano',
          'Polski',
          'Español',
        ]);
        await page.getByTestId('ui-language').selectOption('cs');
        await page.reload();
        await page.getByRole('heading', { level: 1, name: LANGUAGES.cs.settings }).waitFor();
        expect(await page.locator('html').getAttribute('lang')).toBe('cs');
      } finally {
        await context.close();
      }
    });
  },
);
