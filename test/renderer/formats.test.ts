import { describe, expect, it } from 'vitest';
import {
  dateInputPattern,
  formatDateInput,
  formatLocale,
  formatTimeInput,
  localNumbers,
  parseDateInput,
  parseTimeInput,
  timeInputPattern,
} from '../../src/renderer/src/i18n/formats';
import { de } from '../../src/renderer/src/i18n/de';
import { en } from '../../src/renderer/src/i18n/en';
import { fr } from '../../src/renderer/src/i18n/fr';
import { pl } from '../../src/renderer/src/i18n/pl';

describe('dates and times written the way of the interface language', () => {
  it('uses the browser region when it speaks the language, else the language default', () => {
    expect(formatLocale('en', ['en-US', 'it-IT'])).toBe('en-US');
    expect(formatLocale('it', ['en-US', 'it-CH'])).toBe('it-CH');
    expect(formatLocale('en', ['it-IT'])).toBe('en-GB');
    expect(formatLocale('pl', [])).toBe('pl-PL');
  });

  it("shows an empty date field's order in the language's letters, not an example date", () => {
    expect(dateInputPattern('en-US', en.fields.dateLetters)).toBe('mm/dd/yyyy');
    expect(dateInputPattern('en-GB', en.fields.dateLetters)).toBe('dd/mm/yyyy');
    expect(dateInputPattern('de-DE', de.fields.dateLetters)).toBe('TT.MM.JJJJ');
    expect(dateInputPattern('fr-FR', fr.fields.dateLetters)).toBe('jj/mm/aaaa');
    expect(dateInputPattern('pl-PL', pl.fields.dateLetters)).toBe('dd.mm.rrrr');
    // Times: dashes where the digits and AM/PM go.
    expect(timeInputPattern('en-US')).toBe('--:-- --');
    expect(timeInputPattern('de-DE')).toBe('--:--');
    expect(timeInputPattern('en-GB')).toBe('--:--');
  });

  it('writes and reads dates in the locale order, ISO always accepted, impossible dates refused', () => {
    expect(formatDateInput('2026-12-08', 'it-IT')).toBe('08/12/2026');
    expect(formatDateInput('2026-12-08', 'pl-PL')).toBe('08.12.2026');
    expect(formatDateInput('2026-12-08', 'en-US')).toBe('12/08/2026');
    expect(parseDateInput('8/12/2026', 'it-IT')).toBe('2026-12-08');
    expect(parseDateInput('8.12.26', 'pl-PL')).toBe('2026-12-08');
    expect(parseDateInput('12/8/2026', 'en-US')).toBe('2026-12-08');
    expect(parseDateInput('2026-12-08', 'it-IT')).toBe('2026-12-08');
    expect(parseDateInput('31/02/2026', 'it-IT')).toBeNull();
    expect(parseDateInput('tomorrow', 'en-GB')).toBeNull();
  });

  it('writes and reads the dates of Czech, German, French and Spanish', () => {
    expect(['cs', 'de', 'fr', 'es'].map((language) => formatLocale(language, []))).toEqual([
      'cs-CZ',
      'de-DE',
      'fr-FR',
      'es-ES',
    ]);
    expect(formatDateInput('2026-12-08', 'cs-CZ')).toBe('08. 12. 2026');
    expect(formatDateInput('2026-12-08', 'de-DE')).toBe('08.12.2026');
    expect(formatDateInput('2026-12-08', 'fr-FR')).toBe('08/12/2026');
    expect(formatDateInput('2026-12-08', 'es-ES')).toBe('08/12/2026');
    // As a Czech writes it (spaces after the dots, or none), and as the field shows it.
    expect(parseDateInput('8. 12. 2026', 'cs-CZ')).toBe('2026-12-08');
    expect(parseDateInput('8.12.2026', 'cs-CZ')).toBe('2026-12-08');
    expect(parseDateInput('08. 12. 2026', 'cs-CZ')).toBe('2026-12-08');
    expect(parseDateInput('8.12.26', 'de-DE')).toBe('2026-12-08');
    expect(parseDateInput('8/12/2026', 'es-ES')).toBe('2026-12-08');
    expect(formatTimeInput('18:30', 'de-DE')).toBe('18:30');
    expect(formatTimeInput('18:30', 'cs-CZ')).toBe('18:30');
  });

  it('writes the numbers of a message as the language does, leaving other values alone', () => {
    const values = { creates: 200, occurrences: 5000, site: 'Choir' };
    expect(localNumbers(values, 'de')).toEqual({ creates: '200', occurrences: '5.000', site: 'Choir' });
    expect(localNumbers(values, 'cs').occurrences).toBe('5\u00a0000');
    expect(localNumbers(values, 'fr').occurrences).toBe('5\u202f000');
    // Italian, Polish and Spanish group only from five digits on (CLDR): 5000, but 12.000.
    expect(localNumbers(values, 'it').occurrences).toBe('5000');
    expect(localNumbers({ n: 12000 }, 'it').n).toBe('12.000');
  });

  it('writes times on the locale clock and reads the usual ways of typing one', () => {
    expect(formatTimeInput('18:30', 'it-IT')).toBe('18:30');
    expect(formatTimeInput('18:30', 'en-GB')).toBe('18:30');
    expect(formatTimeInput('18:30', 'en-US')).toMatch(/^6:30\s(PM)$/u);
    for (const typed of ['18:30', '18.30', '1830', '6:30 pm', '6:30PM', '6.30 p.m.']) {
      expect(parseTimeInput(typed), typed).toBe('18:30');
    }
    expect(parseTimeInput('12 am')).toBe('00:00');
    expect(parseTimeInput('9')).toBe('09:00');
    expect(parseTimeInput('25:00')).toBeNull();
    expect(parseTimeInput('13 pm')).toBeNull();
  });
});
