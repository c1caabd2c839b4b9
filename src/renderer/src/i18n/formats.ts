/**
 * How dates and times are written for an interface language: the browser's own locale when it speaks that
 * language (an English interface on an American system writes 12/8 and 6:30 PM), else the language's usual
 * region (en → en-GB: 8/12, 18:30; cs → cs-CZ: 8. 12., de → de-DE: 8.12.; fr → fr-FR; it → it-IT; pl → pl-PL;
 * es → es-ES). All but English are 24-hour either way.
 */
const DEFAULT_REGION: Readonly<Record<string, string>> = {
  cs: 'cs-CZ',
  en: 'en-GB',
  fr: 'fr-FR',
  de: 'de-DE',
  it: 'it-IT',
  pl: 'pl-PL',
  es: 'es-ES',
};

export function formatLocale(language: string, preferred: readonly string[] = browserLanguages()): string {
  const spoken = preferred.find((tag) => tag.toLowerCase().split('-')[0] === language && tag.includes('-'));
  return spoken ?? DEFAULT_REGION[language] ?? language;
}

function browserLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : navigator.languages;
}

/** The parts of a short date in the locale's order, e.g. ['day', 'month', 'year'] and the separator '/'. */
function dateShape(locale: string): { order: ('day' | 'month' | 'year')[]; separator: string } {
  const parts = new Intl.DateTimeFormat(locale, {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  }).formatToParts(new Date(Date.UTC(2026, 11, 24)));
  const order = parts
    .filter((part) => part.type === 'day' || part.type === 'month' || part.type === 'year')
    .map((part) => part.type as 'day' | 'month' | 'year');
  const separator = parts.find((part) => part.type === 'literal')?.value ?? '/';
  return { order, separator };
}

/** An ISO date (2026-12-24) as the locale writes it (24/12/2026, 24.12.2026, 12/24/2026). */
export function formatDateInput(iso: string, locale: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return iso;
  const values = { year: match[1], month: match[2], day: match[3] };
  const { order, separator } = dateShape(locale);
  return order.map((part) => values[part]).join(separator);
}

/**
 * What an empty date field shows: the locale's order and separator with letters for the parts (dd/mm/yyyy,
 * TT.MM.JJJJ), as browsers' own date fields do; an example date there looked like a date already set.
 */
export function dateInputPattern(
  locale: string,
  letters: { day: string; month: string; year: string },
): string {
  const { order, separator } = dateShape(locale);
  return order.map((part) => letters[part].repeat(part === 'year' ? 4 : 2)).join(separator);
}

/** A date typed in the locale's order (any of / . - as separators), or ISO; null when it is no real date. */
export function parseDateInput(text: string, locale: string): string | null {
  const trimmed = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(trimmed);
  const numbers = iso
    ? { year: iso[1]!, month: iso[2]!, day: iso[3]! }
    : (() => {
        const pieces = trimmed.split(/\s*[./\-\s]\s*/);
        if (pieces.length !== 3 || pieces.some((piece) => !/^\d{1,4}$/.test(piece))) return null;
        const { order } = dateShape(locale);
        return Object.fromEntries(order.map((part, index) => [part, pieces[index]])) as Record<
          'day' | 'month' | 'year',
          string
        >;
      })();
  if (!numbers) return null;
  const year = numbers.year.length === 2 ? 2000 + Number(numbers.year) : Number(numbers.year);
  const month = Number(numbers.month);
  const day = Number(numbers.day);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1000 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** True when the locale writes times on a 12-hour clock (en-US), false for 24-hour ones (it, pl, en-GB). */
export function usesTwelveHours(locale: string): boolean {
  const cycle = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
  return cycle === 'h12' || cycle === 'h11';
}

/** A 24-hour time (18:30) as the locale writes it (18:30, or 6:30 PM). */
export function formatTimeInput(time: string, locale: string): string {
  const match = /^(\d{2}):(\d{2})$/.exec(time);
  if (!match) return time;
  return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2026, 0, 1, Number(match[1]), Number(match[2]))),
  );
}

/**
 * What an empty time field shows: the locale's time with dashes for its digits and its AM/PM (--:-- or
 * --:-- --), as browsers' own time fields do; an example time there looked like a time already set.
 */
export function timeInputPattern(locale: string): string {
  return formatTimeInput('10:30', locale)
    .replace(/\d/g, '-')
    .replace(/[^\s\-:.,]+/gu, '--');
}

/** A time typed as 18:30, 18.30, 1830, 6:30 pm or 6pm; null when it is no time of day. */
export function parseTimeInput(text: string): string | null {
  const match = /^(\d{1,2})(?:[:.h]?(\d{2}))?\s*([ap])?\.?\s*(?:m\.?)?$/i.exec(text.trim());
  if (!match) return null;
  let hour = Number(match[1]);
  const minute = match[2] === undefined ? 0 : Number(match[2]);
  const half = match[3]?.toLowerCase();
  if (half) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (half === 'p' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return null;
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/** A moment (an ISO timestamp, e.g. when an import ran) as the language writes date and time; as given if unreadable. */
export function formatMoment(iso: string, language: string): string {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return iso;
  return new Intl.DateTimeFormat(formatLocale(language), { dateStyle: 'medium', timeStyle: 'short' }).format(
    moment,
  );
}

/**
 * A message's values with every number written as the language writes numbers (5000 → 5,000 in English,
 * 5.000 in German and Italian, 5 000 in Czech, French and Polish); other values as they are. The plural
 * choice still takes the number itself.
 */
export function localNumbers<T extends Record<string, unknown>>(
  values: T,
  language: string,
): Record<keyof T, unknown> {
  const format = new Intl.NumberFormat(formatLocale(language));
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [
      name,
      typeof value === 'number' ? format.format(value) : value,
    ]),
  ) as Record<keyof T, unknown>;
}
