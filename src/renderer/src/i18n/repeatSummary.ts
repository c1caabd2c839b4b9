import {
  WEEKDAYS,
  weekdayOf,
  type RepeatChoice,
  type SeriesStart,
  type Weekday,
} from '../calendar/recurrenceRule';
import { formatTimeInput, usesTwelveHours } from './formats';

/**
 * A Repeat choice in plain words — "Every Tuesday at 19:30, 8 times" — in each interface language. Each
 * language builds its own sentence (articles, cases and plurals do not fit one message with placeholders);
 * day and month names, lists, ordinals and plural forms come from Intl in the interface's locale.
 */
export type SummaryLanguage = 'cs' | 'en' | 'fr' | 'de' | 'it' | 'pl' | 'es';

/** A Monday (5 January 2026): the days of the week counted from it. */
const MONDAY = Date.UTC(2026, 0, 5);

function dayName(day: Weekday, locale: string): string {
  const date = new Date(MONDAY + WEEKDAYS.indexOf(day) * 86_400_000);
  return new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(date);
}

function dateText(date: string, locale: string, withYear: boolean): string {
  const [year = NaN, month = NaN, day = NaN] = date.split('-').map(Number);
  return new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'long',
    ...(withYear ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year, month - 1, day)));
}

const list = (items: string[], locale: string) =>
  new Intl.ListFormat(locale, { type: 'conjunction', style: 'long' }).format(items);

/** Which of its weekdays in the month the start is: 1–5, or -1 for the last. */
function position(choice: RepeatChoice, start: SeriesStart): number {
  if (choice.monthlyBy === 'lastWeekday') return -1;
  return Math.ceil(Number(start.date.slice(8, 10)) / 7);
}

const weeklyDays = (choice: RepeatChoice, start: SeriesStart): Weekday[] =>
  choice.weekdays.length ? WEEKDAYS.filter((day) => choice.weekdays.includes(day)) : [weekdayOf(start.date)];

interface Parts {
  /** How often and on which days. */
  pattern: string;
  /** At what time (empty for an all-day series). */
  time: string;
  /** How it ends (empty when it does not). */
  end: string;
}

function english(choice: RepeatChoice, start: SeriesStart, locale: string): Parts {
  const n = choice.interval;
  const every = (one: string, many: string) => (n > 1 ? `Every ${n} ${many}` : `Every ${one}`);
  const ordinal = (value: number) => {
    const suffix = { one: 'st', two: 'nd', few: 'rd', other: 'th' } as Record<string, string>;
    return `${value}${suffix[new Intl.PluralRules('en', { type: 'ordinal' }).select(value)] ?? 'th'}`;
  };
  const startDay = dayName(weekdayOf(start.date), locale);
  let pattern = '';
  if (choice.frequency === 'daily') pattern = every('day', 'days');
  else if (choice.frequency === 'weekly') {
    const days = list(
      weeklyDays(choice, start).map((day) => dayName(day, locale)),
      locale,
    );
    pattern = n > 1 ? `Every ${n} weeks on ${days}` : `Every ${days}`;
  } else if (choice.frequency === 'monthly') {
    const nth = position(choice, start);
    const on =
      choice.monthlyBy === 'date'
        ? `on day ${Number(start.date.slice(8, 10))}`
        : `on the ${nth === -1 ? 'last' : ordinal(nth)} ${startDay}`;
    pattern = `${every('month', 'months')} ${on}`;
  } else if (choice.frequency === 'yearly') {
    pattern = `${every('year', 'years')} on ${dateText(start.date, locale, false)}`;
  }
  const end =
    choice.ends === 'count'
      ? choice.count === 1
        ? 'once'
        : `${choice.count} times`
      : choice.ends === 'until' && choice.until
        ? `until ${dateText(choice.until, locale, true)}`
        : '';
  return { pattern, time: start.allDay ? '' : `at ${formatTimeInput(start.time, locale)}`, end };
}

function italian(choice: RepeatChoice, start: SeriesStart, locale: string): Parts {
  const n = choice.interval;
  // "domenica" is the one feminine day: la domenica, la seconda domenica, l'ultima domenica.
  const feminine = (name: string) => name.endsWith('a');
  const withArticle = (name: string) => `${feminine(name) ? 'la' : 'il'} ${name}`;
  // il 24 dicembre, but l'8 and l'11 dicembre (and fino al 24, fino all'8).
  const elided = (date: string) => [8, 11].includes(Number(date.slice(8, 10)));
  const every = (one: string, many: string) => (n > 1 ? `Ogni ${n} ${many}` : `Ogni ${one}`);
  let pattern = '';
  if (choice.frequency === 'daily') pattern = every('giorno', 'giorni');
  else if (choice.frequency === 'weekly') {
    const names = weeklyDays(choice, start).map((day) => dayName(day, locale));
    pattern =
      n > 1 ? `Ogni ${n} settimane, ${list(names.map(withArticle), locale)}` : `Ogni ${list(names, locale)}`;
  } else if (choice.frequency === 'monthly') {
    const name = dayName(weekdayOf(start.date), locale);
    let on = `il giorno ${Number(start.date.slice(8, 10))}`;
    if (choice.monthlyBy !== 'date') {
      const nth = position(choice, start);
      const ordinals = feminine(name)
        ? ['prima', 'seconda', 'terza', 'quarta', 'quinta']
        : ['primo', 'secondo', 'terzo', 'quarto', 'quinto'];
      if (nth === -1) on = `l'${feminine(name) ? 'ultima' : 'ultimo'} ${name}`;
      else on = `${feminine(name) ? 'la' : 'il'} ${ordinals[nth - 1]} ${name}`;
    }
    pattern = `${every('mese', 'mesi')} ${on}`;
  } else if (choice.frequency === 'yearly') {
    pattern = `${every('anno', 'anni')} ${elided(start.date) ? "l'" : 'il '}${dateText(start.date, locale, false)}`;
  }
  const clock = formatTimeInput(start.time, locale);
  // alle 19:30, but all'1:30.
  const time = start.allDay
    ? ''
    : /^0?1[:.]/.test(clock)
      ? `all'${clock.replace(/^0/, '')}`
      : `alle ${clock}`;
  let end = '';
  if (choice.ends === 'count') end = choice.count === 1 ? 'una volta' : `${choice.count} volte`;
  else if (choice.ends === 'until' && choice.until)
    end = `fino ${elided(choice.until) ? "all'" : 'al '}${dateText(choice.until, locale, true)}`;
  return { pattern, time, end };
}

function polish(choice: RepeatChoice, start: SeriesStart, locale: string): Parts {
  const n = choice.interval;
  const plural = (one: string, few: string, many: string) => {
    const form = new Intl.PluralRules('pl').select(n);
    return form === 'one' ? one : form === 'few' ? few : many;
  };
  // Days after "w" are in the accusative: środa → środę, sobota → sobotę, niedziela → niedzielę.
  const accusative = (name: string) => (name.endsWith('a') ? `${name.slice(0, -1)}ę` : name);
  const feminine = (name: string) => name.endsWith('a');
  // "we" before w- and ś- (we wtorek, we środę), else "w".
  const preposition = (phrase: string) => (/^[wś]/i.test(phrase) ? `we ${phrase}` : `w ${phrase}`);
  const every = (one: string, few: string, many: string) =>
    n > 1 ? `Co ${n} ${plural('', few, many)}` : one;
  let pattern = '';
  if (choice.frequency === 'daily') pattern = n > 1 ? `Co ${n} dni` : 'Codziennie';
  else if (choice.frequency === 'weekly') {
    const days = list(
      weeklyDays(choice, start).map((day) => accusative(dayName(day, locale))),
      locale,
    );
    pattern = `${every('Co tydzień', 'tygodnie', 'tygodni')} ${preposition(days)}`;
  } else if (choice.frequency === 'monthly') {
    const name = dayName(weekdayOf(start.date), locale);
    let on = `${Number(start.date.slice(8, 10))}. dnia miesiąca`;
    if (choice.monthlyBy !== 'date') {
      const nth = position(choice, start);
      const ordinals = feminine(name)
        ? ['pierwszą', 'drugą', 'trzecią', 'czwartą', 'piątą', 'ostatnią']
        : ['pierwszy', 'drugi', 'trzeci', 'czwarty', 'piąty', 'ostatni'];
      on = `w ${ordinals[nth === -1 ? 5 : nth - 1]} ${accusative(name)}`;
    }
    pattern = `${every('Co miesiąc', 'miesiące', 'miesięcy')} ${on}`;
  } else if (choice.frequency === 'yearly') {
    pattern = `${every('Co roku', 'lata', 'lat')} ${dateText(start.date, locale, false)}`;
  }
  let end = '';
  if (choice.ends === 'count') end = choice.count === 1 ? '1 raz' : `${choice.count} razy`;
  else if (choice.ends === 'until' && choice.until) end = `do ${dateText(choice.until, locale, true)}`;
  return { pattern, time: start.allDay ? '' : `o ${formatTimeInput(start.time, locale)}`, end };
}

function czech(choice: RepeatChoice, start: SeriesStart, locale: string): Parts {
  const n = choice.interval;
  const few = n >= 2 && n <= 4;
  // "Jednou za 2 týdny", "Jednou za 5 týdnů": za + accusative fits every count (as the editor's "Jednou za").
  const every = (one: string, fewForm: string, many: string) =>
    n > 1 ? `Jednou za ${n} ${few ? fewForm : many}` : one;
  // Days after "v" in the accusative, "ve" before st- and čt-.
  const on: Record<Weekday, string> = {
    MO: 'v pondělí',
    TU: 'v úterý',
    WE: 've středu',
    TH: 've čtvrtek',
    FR: 'v pátek',
    SA: 'v sobotu',
    SU: 'v neděli',
  };
  let pattern = '';
  if (choice.frequency === 'daily') pattern = every('Každý den', 'dny', 'dní');
  else if (choice.frequency === 'weekly') {
    const days = list(
      weeklyDays(choice, start).map((day) => on[day]),
      locale,
    );
    pattern = `${every('Každý týden', 'týdny', 'týdnů')} ${days}`;
  } else if (choice.frequency === 'monthly') {
    const day = weekdayOf(start.date);
    let when = `dne ${Number(start.date.slice(8, 10))}.`;
    if (choice.monthlyBy !== 'date') {
      const nth = position(choice, start);
      // The ordinal agrees with the day: druhé úterý, druhou středu, druhý čtvrtek.
      const gender = ['MO', 'TU'].includes(day)
        ? 'neuter'
        : ['TH', 'FR'].includes(day)
          ? 'masculine'
          : 'feminine';
      const ordinals = {
        neuter: ['první', 'druhé', 'třetí', 'čtvrté', 'páté'],
        feminine: ['první', 'druhou', 'třetí', 'čtvrtou', 'pátou'],
        masculine: ['první', 'druhý', 'třetí', 'čtvrtý', 'pátý'],
      }[gender];
      when = `${nth === -1 ? 'poslední' : ordinals[nth - 1]} ${on[day].replace(/^ve? /, '')}`;
    }
    pattern = `${every('Každý měsíc', 'měsíce', 'měsíců')} ${when}`;
  } else if (choice.frequency === 'yearly') {
    pattern = `${every('Každý rok', 'roky', 'let')} ${dateText(start.date, locale, false)}`;
  }
  let end = '';
  if (choice.ends === 'count') end = choice.count === 1 ? 'jednou' : `${choice.count}krát`;
  else if (choice.ends === 'until' && choice.until) end = `do ${dateText(choice.until, locale, true)}`;
  return { pattern, time: start.allDay ? '' : `v ${formatTimeInput(start.time, locale)}`, end };
}

function german(choice: RepeatChoice, start: SeriesStart, locale: string): Parts {
  const n = choice.interval;
  const every = (one: string, many: string) => (n > 1 ? `Alle ${n} ${many}` : one);
  let pattern = '';
  if (choice.frequency === 'daily') pattern = every('Täglich', 'Tage');
  else if (choice.frequency === 'weekly') {
    const days = list(
      weeklyDays(choice, start).map((day) => dayName(day, locale)),
      locale,
    );
    pattern = n > 1 ? `Alle ${n} Wochen am ${days}` : `Jeden ${days}`;
  } else if (choice.frequency === 'monthly') {
    const nth = position(choice, start);
    const ordinals = ['ersten', 'zweiten', 'dritten', 'vierten', 'fünften'];
    const on =
      choice.monthlyBy === 'date'
        ? `am ${Number(start.date.slice(8, 10))}.`
        : `am ${nth === -1 ? 'letzten' : ordinals[nth - 1]} ${dayName(weekdayOf(start.date), locale)}`;
    pattern = `${every('Jeden Monat', 'Monate')} ${on}`;
  } else if (choice.frequency === 'yearly') {
    pattern = `${every('Jedes Jahr', 'Jahre')} am ${dateText(start.date, locale, false)}`;
  }
  const clock = formatTimeInput(start.time, locale);
  let end = '';
  if (choice.ends === 'count') end = choice.count === 1 ? 'einmal' : `${choice.count}-mal`;
  else if (choice.ends === 'until' && choice.until) end = `bis ${dateText(choice.until, locale, true)}`;
  const time = start.allDay ? '' : usesTwelveHours(locale) ? `um ${clock}` : `um ${clock} Uhr`;
  return { pattern, time, end };
}

function french(choice: RepeatChoice, start: SeriesStart, locale: string): Parts {
  const n = choice.interval;
  let pattern = '';
  if (choice.frequency === 'daily') pattern = n > 1 ? `Tous les ${n} jours` : 'Tous les jours';
  else if (choice.frequency === 'weekly') {
    const names = weeklyDays(choice, start).map((day) => dayName(day, locale));
    // Tous les mardis et jeudis; toutes les 2 semaines, le mardi et le jeudi.
    pattern =
      n > 1
        ? `Toutes les ${n} semaines, ${list(
            names.map((name) => `le ${name}`),
            locale,
          )}`
        : `Tous les ${list(
            names.map((name) => `${name}s`),
            locale,
          )}`;
  } else if (choice.frequency === 'monthly') {
    const nth = position(choice, start);
    const ordinals = ['premier', 'deuxième', 'troisième', 'quatrième', 'cinquième'];
    const date = Number(start.date.slice(8, 10));
    const on =
      choice.monthlyBy === 'date'
        ? `le ${date === 1 ? '1er' : date}`
        : `le ${nth === -1 ? 'dernier' : ordinals[nth - 1]} ${dayName(weekdayOf(start.date), locale)}`;
    pattern = `${n > 1 ? `Tous les ${n} mois` : 'Tous les mois'} ${on}`;
  } else if (choice.frequency === 'yearly') {
    pattern = `${n > 1 ? `Tous les ${n} ans` : 'Tous les ans'} le ${dateText(start.date, locale, false)}`;
  }
  let end = '';
  if (choice.ends === 'count') end = choice.count === 1 ? 'une fois' : `${choice.count} fois`;
  else if (choice.ends === 'until' && choice.until) end = `jusqu’au ${dateText(choice.until, locale, true)}`;
  return { pattern, time: start.allDay ? '' : `à ${formatTimeInput(start.time, locale)}`, end };
}

function spanish(choice: RepeatChoice, start: SeriesStart, locale: string): Parts {
  const n = choice.interval;
  // los martes, los sábados: names that end in -s stay as they are.
  const plural = (name: string) => (name.endsWith('s') ? name : `${name}s`);
  let pattern = '';
  if (choice.frequency === 'daily') pattern = n > 1 ? `Cada ${n} días` : 'Todos los días';
  else if (choice.frequency === 'weekly') {
    const days = list(
      weeklyDays(choice, start).map((day) => plural(dayName(day, locale))),
      locale,
    );
    pattern = n > 1 ? `Cada ${n} semanas, los ${days}` : `Todos los ${days}`;
  } else if (choice.frequency === 'monthly') {
    const nth = position(choice, start);
    const ordinals = ['primer', 'segundo', 'tercer', 'cuarto', 'quinto'];
    const on =
      choice.monthlyBy === 'date'
        ? `el día ${Number(start.date.slice(8, 10))}`
        : `el ${nth === -1 ? 'último' : ordinals[nth - 1]} ${dayName(weekdayOf(start.date), locale)}`;
    pattern = `${n > 1 ? `Cada ${n} meses` : 'Cada mes'} ${on}`;
  } else if (choice.frequency === 'yearly') {
    pattern = `${n > 1 ? `Cada ${n} años` : 'Cada año'} el ${dateText(start.date, locale, false)}`;
  }
  const clock = formatTimeInput(start.time, locale);
  // a las 19:30, but a la 1:30.
  const time = start.allDay ? '' : /^0?1[:.]/.test(clock) ? `a la ${clock}` : `a las ${clock}`;
  let end = '';
  if (choice.ends === 'count') end = choice.count === 1 ? 'una vez' : `${choice.count} veces`;
  else if (choice.ends === 'until' && choice.until) end = `hasta el ${dateText(choice.until, locale, true)}`;
  return { pattern, time, end };
}

const BUILDERS = {
  cs: czech,
  en: english,
  fr: french,
  de: german,
  it: italian,
  pl: polish,
  es: spanish,
} as const;

/**
 * The sentence for a choice ('' for "does not repeat"), e.g. "Every Tuesday at 19:30, 8 times",
 * "Ogni mese il secondo martedì alle 19:30", "Co 2 tygodnie we wtorek i czwartek o 19:30, do 31 stycznia 2027".
 * `locale` is the one dates are written in (see formatLocale): en-GB writes 19:30, en-US 7:30 PM.
 */
export function repeatSummary(
  choice: RepeatChoice,
  start: SeriesStart,
  language: SummaryLanguage,
  locale: string,
): string {
  if (choice.frequency === 'never' || !start.date) return '';
  const { pattern, time, end } = (BUILDERS[language] ?? english)(choice, start, locale);
  return `${[pattern, time].filter(Boolean).join(' ')}${end ? `, ${end}` : ''}`;
}
