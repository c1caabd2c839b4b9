import { describe, expect, it } from 'vitest';
import {
  daysIntoWeek,
  firstDayOfWeek,
  luxonWeekdayOfColumn,
} from '../../src/renderer/src/calendar/weekStart';

// Weeks start where people of the system's region start them (CLDR), in the interface's language.
describe('the first day of the week', () => {
  it("comes from the system's region", () => {
    expect(firstDayOfWeek('en', ['en-US', 'en'])).toBe(0);
    expect(firstDayOfWeek('en', ['en-GB'])).toBe(1);
    // An English interface on a German system: the German week.
    expect(firstDayOfWeek('en', ['de-DE', 'en'])).toBe(1);
    expect(firstDayOfWeek('de', ['de-CH'])).toBe(1);
    // The first language with a region decides.
    expect(firstDayOfWeek('fr', ['fr', 'fr-CA'])).toBe(0);
  });

  it("is the language's own without a region, and Monday when nothing tells", () => {
    expect(firstDayOfWeek('en', ['en'])).toBe(0);
    for (const language of ['cs', 'de', 'es', 'fr', 'it', 'pl']) expect(firstDayOfWeek(language, [])).toBe(1);
    expect(firstDayOfWeek('not a language!', ['also not'])).toBe(1);
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
