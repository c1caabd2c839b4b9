/**
 * The day a week starts on, as people of this region count it (CLDR's week data through `Intl.Locale`):
 * Sunday in the United States, Monday in most of Europe, Saturday in much of the Middle East. The region comes
 * from the system's languages (`navigator.languages`: `en-US`, `de-CH`…), the language from the interface; a
 * system without a region gives the language's own (English: the United States). FullCalendar's numbering:
 * 0 is Sunday, 1 Monday… 6 Saturday.
 */
export function firstDayOfWeek(language: string, systemLocales: readonly string[]): number {
  const region = systemLocales
    .map((tag) => {
      try {
        return new Intl.Locale(tag).region;
      } catch {
        return undefined;
      }
    })
    .find(Boolean);
  try {
    const locale = new Intl.Locale(language, region ? { region } : {}).maximize() as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    const firstDay = (locale.getWeekInfo?.() ?? locale.weekInfo)?.firstDay;
    // CLDR counts 1 (Monday) to 7 (Sunday).
    return typeof firstDay === 'number' && firstDay >= 1 && firstDay <= 7 ? firstDay % 7 : MONDAY;
  } catch {
    return MONDAY;
  }
}

/** Where the browser cannot tell (no week data): Monday, ISO 8601's first day. */
const MONDAY = 1;

/** The system's languages, most preferred first (empty outside a browser). */
export const systemLocales = (): readonly string[] =>
  typeof navigator === 'undefined'
    ? []
    : navigator.languages.length
      ? navigator.languages
      : [navigator.language];

/** Luxon's weekday (1 Monday … 7 Sunday) of the `index`-th column of a week starting on `firstDay`. */
export const luxonWeekdayOfColumn = (firstDay: number, index: number): number =>
  ((firstDay + index + 6) % 7) + 1;

/** How many days before `luxonWeekday` the week containing it starts, for a week starting on `firstDay`. */
export const daysIntoWeek = (luxonWeekday: number, firstDay: number): number =>
  ((luxonWeekday % 7) - firstDay + 7) % 7;
