/**
 * The day a week starts on in `locale` (CLDR's week data through `Intl.Locale`): Sunday in the United States,
 * Monday in most of Europe, Saturday in much of the Middle East. The calendar passes the locale whose
 * conventions its dates follow (`formatLocale` in i18n/formats.ts), so that weeks and dates agree: an English
 * interface on an American system writes 12/24/2026 and starts weeks on Sunday, on any other 24/12/2026 and
 * Monday. FullCalendar's numbering: 0 is Sunday, 1 Monday… 6 Saturday.
 */
export function firstDayOfWeek(locale: string): number {
  try {
    const maximized = new Intl.Locale(locale).maximize() as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    const firstDay = (maximized.getWeekInfo?.() ?? maximized.weekInfo)?.firstDay;
    // CLDR counts 1 (Monday) to 7 (Sunday).
    return typeof firstDay === 'number' && firstDay >= 1 && firstDay <= 7 ? firstDay % 7 : MONDAY;
  } catch {
    return MONDAY;
  }
}

/** Where the browser cannot tell (no week data): Monday, ISO 8601's first day. */
const MONDAY = 1;

/** Luxon's weekday (1 Monday … 7 Sunday) of the `index`-th column of a week starting on `firstDay`. */
export const luxonWeekdayOfColumn = (firstDay: number, index: number): number =>
  ((firstDay + index + 6) % 7) + 1;

/** How many days before `luxonWeekday` the week containing it starts, for a week starting on `firstDay`. */
export const daysIntoWeek = (luxonWeekday: number, firstDay: number): number =>
  ((luxonWeekday % 7) - firstDay + 7) % 7;
