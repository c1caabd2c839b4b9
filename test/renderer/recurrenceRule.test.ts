import { describe, expect, it } from 'vitest';
import {
  defaultChoice,
  readRecurrence,
  writeRecurrence,
  type RepeatChoice,
  type SeriesStart,
} from '../../src/renderer/src/calendar/recurrenceRule';
import { repeatSummary, type SummaryLanguage } from '../../src/renderer/src/i18n/repeatSummary';
import { formatLocale } from '../../src/renderer/src/i18n/formats';
import { parseRecurrenceLines } from '../../src/main/core/recurrence/lines';

/** Tuesday 8 December 2026, 19:30 in Rome: the 2nd Tuesday of its month (not the last). */
const TUESDAY: SeriesStart = { date: '2026-12-08', time: '19:30', allDay: false, timezone: 'Europe/Rome' };
/** Friday 25 December 2026: the 4th and last Friday of its month. */
const LAST_FRIDAY: SeriesStart = { ...TUESDAY, date: '2026-12-25' };

const choice = (start: SeriesStart, change: Partial<RepeatChoice>): RepeatChoice => ({
  ...defaultChoice(start),
  ...change,
});
const write = (start: SeriesStart, change: Partial<RepeatChoice>, kept: string[] = []) =>
  writeRecurrence({ kind: 'choice', choice: choice(start, change), kept }, start);

describe('the Repeat control’s choices as RRULE lines', () => {
  it('writes each frequency, every N and each kind of end', () => {
    expect(write(TUESDAY, { frequency: 'never' })).toEqual([]);
    expect(write(TUESDAY, { frequency: 'daily', interval: 3 })).toEqual(['RRULE:FREQ=DAILY;INTERVAL=3']);
    expect(write(TUESDAY, { frequency: 'weekly', ends: 'count', count: 8 })).toEqual([
      'RRULE:FREQ=WEEKLY;COUNT=8;BYDAY=TU',
    ]);
    // Days in week order, whatever order they were ticked in.
    expect(write(TUESDAY, { frequency: 'weekly', interval: 2, weekdays: ['TH', 'TU'] })).toEqual([
      'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH',
    ]);
    expect(write(TUESDAY, { frequency: 'monthly' })).toEqual(['RRULE:FREQ=MONTHLY']);
    expect(write(TUESDAY, { frequency: 'monthly', monthlyBy: 'weekday' })).toEqual([
      'RRULE:FREQ=MONTHLY;BYDAY=2TU',
    ]);
    expect(write(LAST_FRIDAY, { frequency: 'monthly', monthlyBy: 'lastWeekday' })).toEqual([
      'RRULE:FREQ=MONTHLY;BYDAY=-1FR',
    ]);
    expect(write(TUESDAY, { frequency: 'yearly', interval: 2 })).toEqual(['RRULE:FREQ=YEARLY;INTERVAL=2']);
    // Until the end of 31 January in Rome (UTC+1 in winter): 22:59:59 UTC. All-day series take a date.
    expect(write(TUESDAY, { frequency: 'weekly', ends: 'until', until: '2027-01-31' })).toEqual([
      'RRULE:FREQ=WEEKLY;UNTIL=20270131T225959Z;BYDAY=TU',
    ]);
    expect(
      write({ ...TUESDAY, allDay: true }, { frequency: 'daily', ends: 'until', until: '2027-01-31' }),
    ).toEqual(['RRULE:FREQ=DAILY;UNTIL=20270131']);
  });

  it('reads back what it writes, and the shapes other calendars write for the same rules', () => {
    const cases: [string[], SeriesStart, Partial<RepeatChoice>][] = [
      [['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8'], TUESDAY, { frequency: 'weekly', ends: 'count', count: 8 }],
      [['RRULE:FREQ=WEEKLY;COUNT=8'], TUESDAY, { frequency: 'weekly', ends: 'count', count: 8 }],
      [
        ['RRULE:FREQ=WEEKLY;WKST=MO;BYDAY=TH,TU;INTERVAL=2'],
        TUESDAY,
        { frequency: 'weekly', interval: 2, weekdays: ['TU', 'TH'] },
      ],
      [['RRULE:FREQ=MONTHLY;BYMONTHDAY=8'], TUESDAY, { frequency: 'monthly' }],
      [['RRULE:FREQ=MONTHLY;BYDAY=2TU'], TUESDAY, { frequency: 'monthly', monthlyBy: 'weekday' }],
      [['RRULE:FREQ=MONTHLY;BYDAY=4FR'], LAST_FRIDAY, { frequency: 'monthly', monthlyBy: 'weekday' }],
      [['RRULE:FREQ=MONTHLY;BYDAY=-1FR'], LAST_FRIDAY, { frequency: 'monthly', monthlyBy: 'lastWeekday' }],
      [['RRULE:FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=8'], TUESDAY, { frequency: 'yearly' }],
      // An UNTIL written at the day's last second in UTC, and one in floating local time.
      [
        ['RRULE:FREQ=DAILY;UNTIL=20270131T225959Z'],
        TUESDAY,
        { frequency: 'daily', ends: 'until', until: '2027-01-31' },
      ],
      [
        ['RRULE:FREQ=DAILY;UNTIL=20270131T193000'],
        TUESDAY,
        { frequency: 'daily', ends: 'until', until: '2027-01-31' },
      ],
    ];
    for (const [lines, start, expected] of cases) {
      const state = readRecurrence(lines, start);
      expect(state, lines[0]).toEqual({ kind: 'choice', choice: choice(start, expected), kept: [] });
    }
    const rule = ['RRULE:FREQ=MONTHLY;INTERVAL=3;UNTIL=20271231T225959Z;BYDAY=-1FR'];
    expect(writeRecurrence(readRecurrence(rule, LAST_FRIDAY), LAST_FRIDAY)).toEqual(rule);
  });

  it('writes every rule in the normal form the API keeps, so a saved rule reads back unchanged', () => {
    const choices: [SeriesStart, Partial<RepeatChoice>][] = [
      [TUESDAY, { frequency: 'daily', interval: 3, ends: 'count', count: 5 }],
      [
        TUESDAY,
        { frequency: 'weekly', interval: 2, weekdays: ['TU', 'TH'], ends: 'until', until: '2027-06-30' },
      ],
      [TUESDAY, { frequency: 'monthly', monthlyBy: 'weekday', ends: 'count', count: 12 }],
      [LAST_FRIDAY, { frequency: 'monthly', monthlyBy: 'lastWeekday', interval: 2 }],
      [
        { ...TUESDAY, allDay: true },
        { frequency: 'yearly', ends: 'until', until: '2036-12-08' },
      ],
    ];
    for (const [start, change] of choices) {
      const lines = write(start, change, ['EXDATE;TZID=Europe/Rome:20261215T193000']);
      expect(parseRecurrenceLines(lines)).toEqual({ ok: true, lines });
    }
  });

  it('keeps the removed and added dates through a change of the rule', () => {
    const lines = [
      'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8',
      'EXDATE;TZID=Europe/Rome:20261215T193000',
      'RDATE;TZID=Europe/Rome:20261217T193000',
    ];
    const state = readRecurrence(lines, TUESDAY);
    expect(state.kind).toBe('choice');
    if (state.kind !== 'choice') return;
    expect(state.kept).toEqual(lines.slice(1));
    state.choice.count = 10;
    expect(writeRecurrence(state, TUESDAY)).toEqual([
      'RRULE:FREQ=WEEKLY;COUNT=10;BYDAY=TU',
      ...lines.slice(1),
    ]);
  });

  it('shows a rule it cannot represent as custom, and gives it back untouched', () => {
    const custom = [
      ['RRULE:FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=-1'],
      ['RRULE:FREQ=DAILY;BYHOUR=9,17'],
      // A weekday rule that is not the start's own weekday position: the control would rewrite it.
      ['RRULE:FREQ=MONTHLY;BYDAY=3TU'],
      ['RRULE:FREQ=MONTHLY;BYDAY=-1TU'],
      ['RRULE:FREQ=MONTHLY;BYMONTHDAY=15'],
      ['RRULE:FREQ=HOURLY'],
      ['RRULE:FREQ=DAILY;COUNT=3;UNTIL=20270101'],
      ['RRULE:FREQ=WEEKLY;BYDAY=TU', 'RRULE:FREQ=WEEKLY;BYDAY=TH'],
      ['RDATE;TZID=Europe/Rome:20261217T193000'],
    ];
    for (const lines of custom) {
      const state = readRecurrence([...lines, 'EXDATE:20261215T183000Z'], TUESDAY);
      expect(state.kind, lines[0]).toBe('custom');
      expect(writeRecurrence(state, TUESDAY)).toEqual([...lines, 'EXDATE:20261215T183000Z']);
    }
    expect(readRecurrence([], TUESDAY)).toEqual({ kind: 'choice', choice: defaultChoice(TUESDAY), kept: [] });
  });
});

describe('the Repeat summary in plain words', () => {
  const say = (language: SummaryLanguage, start: SeriesStart, change: Partial<RepeatChoice>) =>
    repeatSummary(choice(start, change), start, language, formatLocale(language, []));

  it('in English', () => {
    expect(say('en', TUESDAY, { frequency: 'weekly', ends: 'count', count: 8 })).toBe(
      'Every Tuesday at 19:30, 8 times',
    );
    expect(say('en', TUESDAY, { frequency: 'weekly', interval: 2, weekdays: ['TU', 'TH', 'SA'] })).toBe(
      'Every 2 weeks on Tuesday, Thursday and Saturday at 19:30',
    );
    expect(say('en', TUESDAY, { frequency: 'daily', ends: 'count', count: 1 })).toBe(
      'Every day at 19:30, once',
    );
    expect(say('en', TUESDAY, { frequency: 'monthly', monthlyBy: 'weekday' })).toBe(
      'Every month on the 2nd Tuesday at 19:30',
    );
    expect(say('en', LAST_FRIDAY, { frequency: 'monthly', monthlyBy: 'lastWeekday', interval: 3 })).toBe(
      'Every 3 months on the last Friday at 19:30',
    );
    expect(
      say('en', { ...TUESDAY, allDay: true }, { frequency: 'yearly', ends: 'until', until: '2030-12-31' }),
    ).toBe('Every year on 8 December, until 31 December 2030');
    // An American English system writes its own clock and dates.
    expect(repeatSummary(choice(TUESDAY, { frequency: 'monthly' }), TUESDAY, 'en', 'en-US')).toBe(
      'Every month on day 8 at 7:30 PM',
    );
    expect(say('en', TUESDAY, { frequency: 'never' })).toBe('');
  });

  it('in Italian, with articles and elisions', () => {
    expect(say('it', TUESDAY, { frequency: 'weekly', ends: 'count', count: 8 })).toBe(
      'Ogni martedì alle 19:30, 8 volte',
    );
    expect(say('it', TUESDAY, { frequency: 'weekly', interval: 2, weekdays: ['TU', 'SU'] })).toBe(
      'Ogni 2 settimane, il martedì e la domenica alle 19:30',
    );
    expect(say('it', TUESDAY, { frequency: 'monthly', monthlyBy: 'weekday' })).toBe(
      'Ogni mese il secondo martedì alle 19:30',
    );
    expect(
      say('it', { ...TUESDAY, date: '2026-12-27' }, { frequency: 'monthly', monthlyBy: 'lastWeekday' }),
    ).toBe("Ogni mese l'ultima domenica alle 19:30");
    expect(
      say('it', { ...TUESDAY, time: '01:30' }, { frequency: 'yearly', ends: 'until', until: '2030-12-11' }),
    ).toBe("Ogni anno l'8 dicembre all'1:30, fino all'11 dicembre 2030");
    expect(say('it', TUESDAY, { frequency: 'daily', interval: 2, ends: 'count', count: 1 })).toBe(
      'Ogni 2 giorni alle 19:30, una volta',
    );
  });

  it('in Czech, with cases, genders and plural forms', () => {
    expect(say('cs', TUESDAY, { frequency: 'weekly', ends: 'count', count: 8 })).toBe(
      'Každý týden v úterý v 19:30, 8krát',
    );
    expect(say('cs', TUESDAY, { frequency: 'weekly', interval: 2, weekdays: ['WE', 'TH'] })).toBe(
      // Czech keeps a one-letter word on the line of what follows it: Intl joins "a" with a no-break space.
      'Jednou za 2 týdny ve středu a\u00a0ve čtvrtek v 19:30',
    );
    expect(say('cs', TUESDAY, { frequency: 'weekly', interval: 5, weekdays: ['MO', 'SA'] })).toBe(
      'Jednou za 5 týdnů v pondělí a\u00a0v sobotu v 19:30',
    );
    expect(say('cs', TUESDAY, { frequency: 'monthly', monthlyBy: 'weekday' })).toBe(
      'Každý měsíc druhé úterý v 19:30',
    );
    expect(
      say('cs', { ...TUESDAY, date: '2026-12-27' }, { frequency: 'monthly', monthlyBy: 'lastWeekday' }),
    ).toBe('Každý měsíc poslední neděli v 19:30');
    expect(
      say('cs', { ...TUESDAY, date: '2026-12-09' }, { frequency: 'monthly', monthlyBy: 'weekday' }),
    ).toBe('Každý měsíc druhou středu v 19:30');
    expect(say('cs', TUESDAY, { frequency: 'monthly', interval: 3 })).toBe(
      'Jednou za 3 měsíce dne 8. v 19:30',
    );
    expect(
      say('cs', { ...TUESDAY, allDay: true }, { frequency: 'yearly', ends: 'until', until: '2031-01-31' }),
    ).toBe('Každý rok 8. prosince, do 31. ledna 2031');
    expect(say('cs', TUESDAY, { frequency: 'daily', ends: 'count', count: 1 })).toBe(
      'Každý den v 19:30, jednou',
    );
  });

  it('in German', () => {
    expect(say('de', TUESDAY, { frequency: 'weekly', ends: 'count', count: 8 })).toBe(
      'Jeden Dienstag um 19:30 Uhr, 8-mal',
    );
    expect(say('de', TUESDAY, { frequency: 'weekly', interval: 2, weekdays: ['TU', 'TH', 'SA'] })).toBe(
      'Alle 2 Wochen am Dienstag, Donnerstag und Samstag um 19:30 Uhr',
    );
    expect(say('de', TUESDAY, { frequency: 'monthly', monthlyBy: 'weekday' })).toBe(
      'Jeden Monat am zweiten Dienstag um 19:30 Uhr',
    );
    expect(say('de', LAST_FRIDAY, { frequency: 'monthly', monthlyBy: 'lastWeekday', interval: 3 })).toBe(
      'Alle 3 Monate am letzten Freitag um 19:30 Uhr',
    );
    expect(say('de', TUESDAY, { frequency: 'monthly' })).toBe('Jeden Monat am 8. um 19:30 Uhr');
    expect(
      say('de', { ...TUESDAY, allDay: true }, { frequency: 'yearly', ends: 'until', until: '2030-12-31' }),
    ).toBe('Jedes Jahr am 8. Dezember, bis 31. Dezember 2030');
    expect(say('de', TUESDAY, { frequency: 'daily', ends: 'count', count: 1 })).toBe(
      'Täglich um 19:30 Uhr, einmal',
    );
  });

  it('in French', () => {
    expect(say('fr', TUESDAY, { frequency: 'weekly', ends: 'count', count: 8 })).toBe(
      'Tous les mardis à 19:30, 8 fois',
    );
    expect(say('fr', TUESDAY, { frequency: 'weekly', interval: 2, weekdays: ['TU', 'TH'] })).toBe(
      'Toutes les 2 semaines, le mardi et le jeudi à 19:30',
    );
    expect(say('fr', TUESDAY, { frequency: 'monthly', monthlyBy: 'weekday' })).toBe(
      'Tous les mois le deuxième mardi à 19:30',
    );
    expect(say('fr', LAST_FRIDAY, { frequency: 'monthly', monthlyBy: 'lastWeekday' })).toBe(
      'Tous les mois le dernier vendredi à 19:30',
    );
    expect(say('fr', { ...TUESDAY, date: '2026-12-01' }, { frequency: 'monthly', interval: 2 })).toBe(
      'Tous les 2 mois le 1er à 19:30',
    );
    expect(
      say('fr', { ...TUESDAY, allDay: true }, { frequency: 'yearly', ends: 'until', until: '2030-12-31' }),
    ).toBe('Tous les ans le 8 décembre, jusqu’au 31 décembre 2030');
    expect(say('fr', TUESDAY, { frequency: 'daily', ends: 'count', count: 1 })).toBe(
      'Tous les jours à 19:30, une fois',
    );
  });

  it('in Spanish', () => {
    expect(say('es', TUESDAY, { frequency: 'weekly', ends: 'count', count: 8 })).toBe(
      'Todos los martes a las 19:30, 8 veces',
    );
    expect(say('es', TUESDAY, { frequency: 'weekly', interval: 2, weekdays: ['TU', 'SA'] })).toBe(
      'Cada 2 semanas, los martes y sábados a las 19:30',
    );
    expect(say('es', TUESDAY, { frequency: 'monthly', monthlyBy: 'weekday' })).toBe(
      'Cada mes el segundo martes a las 19:30',
    );
    expect(say('es', LAST_FRIDAY, { frequency: 'monthly', monthlyBy: 'lastWeekday' })).toBe(
      'Cada mes el último viernes a las 19:30',
    );
    expect(
      say('es', { ...TUESDAY, time: '01:30' }, { frequency: 'yearly', ends: 'until', until: '2030-12-31' }),
    ).toBe('Cada año el 8 de diciembre a la 1:30, hasta el 31 de diciembre de 2030');
    expect(say('es', TUESDAY, { frequency: 'daily', interval: 3, ends: 'count', count: 1 })).toBe(
      'Cada 3 días a las 19:30, una vez',
    );
  });

  it('in Polish, with cases, genders and plural forms', () => {
    expect(say('pl', TUESDAY, { frequency: 'weekly', ends: 'count', count: 8 })).toBe(
      'Co tydzień we wtorek o 19:30, 8 razy',
    );
    expect(say('pl', TUESDAY, { frequency: 'weekly', interval: 2, weekdays: ['WE', 'SA'] })).toBe(
      'Co 2 tygodnie we środę i sobotę o 19:30',
    );
    expect(say('pl', TUESDAY, { frequency: 'weekly', interval: 5, weekdays: ['MO', 'FR'] })).toBe(
      'Co 5 tygodni w poniedziałek i piątek o 19:30',
    );
    expect(say('pl', TUESDAY, { frequency: 'monthly', monthlyBy: 'weekday' })).toBe(
      'Co miesiąc w drugi wtorek o 19:30',
    );
    expect(
      say(
        'pl',
        { ...TUESDAY, date: '2026-12-27' },
        { frequency: 'monthly', monthlyBy: 'lastWeekday', interval: 2 },
      ),
    ).toBe('Co 2 miesiące w ostatnią niedzielę o 19:30');
    expect(say('pl', TUESDAY, { frequency: 'monthly', interval: 12 })).toBe(
      'Co 12 miesięcy 8. dnia miesiąca o 19:30',
    );
    expect(
      say('pl', { ...TUESDAY, allDay: true }, { frequency: 'yearly', ends: 'until', until: '2031-01-31' }),
    ).toBe('Co roku 8 grudnia, do 31 stycznia 2031');
    expect(say('pl', TUESDAY, { frequency: 'daily', ends: 'count', count: 1 })).toBe(
      'Codziennie o 19:30, 1 raz',
    );
    expect(say('pl', TUESDAY, { frequency: 'daily', interval: 3 })).toBe('Co 3 dni o 19:30');
  });
});
