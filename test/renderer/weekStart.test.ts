import { describe, expect, it } from 'vitest';
import {
  daysIntoWeek,
  firstDayOfWeek,
  luxonWeekdayOfColumn,
} from '../../src/renderer/src/calendar/weekStart';
import { formatLocale } from '../../src/renderer/src/i18n/formats';

// Weeks start where people of the dates' locale start them (CLDR): the same rule as the dates' conventions.
describe('the first day of the week', () => {
  it('follows the locale whose conventions the dates follow', () => {
    expect(firstDayOfWeek('en-US')).toBe(0);
    expect(firstDayOfWeek('en-GB')).toBe(1);
    expect(firstDayOfWeek('de-CH')).toBe(1);
    expect(firstDayOfWeek('fr-CA')).toBe(0);
    expect(firstDayOfWeek('ar-EG')).toBe(6);
    expect(firstDayOfWeek('not a language!')).toBe(1);
  });

  it("agrees with the dates: the region of a system speaking the language, else the language's usual one", () => {
    // An English interface on an American system: 12/24/2026, weeks from Sunday.
    expect(formatLocale('en', ['en-US', 'en'])).toBe('en-US');
    expect(firstDayOfWeek(formatLocale('en', ['en-US', 'en']))).toBe(0);
    // On a system that gives no English region, or a German one: 24/12/2026, weeks from Monday.
    for (const system of [['en'], ['de-DE', 'en'], []]) {
      expect(formatLocale('en', system)).toBe('en-GB');
      expect(firstDayOfWeek(formatLocale('en', system))).toBe(1);
    }
    for (const language of ['cs', 'de', 'es', 'fr', 'it', 'pl'])
      expect(firstDayOfWeek(formatLocale(language, []))).toBe(1);
    expect(firstDayOfWeek(formatLocale('fr', ['fr-CA']))).toBe(0);
  });

  it('lays out the columns and the days before a date in its week', () => {
    // From Sunday: Sunday (7), Monday (1)…; from Monday: Monday (1)…
    expect([0, 1, 2].map((index) => luxonWeekdayOfColumn(0, index))).toEqual([7, 1, 2]);
    expect([0, 6].map((index) => luxonWeekdayOfColumn(1, index))).toEqual([1, 7]);
    // Sunday 2026-11-01 (weekday 7) starts a Sunday week, and is six days into a Monday one.
    expect(daysIntoWeek(7, 0)).toBe(0);
    expect(daysIntoWeek(7, 1)).toBe(6);
    expect(daysIntoWeek(6, 6)).toBe(0);
  });
});
