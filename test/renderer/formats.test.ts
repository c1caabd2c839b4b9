import { describe, expect, it } from 'vitest';
import {
  formatDateInput,
  formatLocale,
  formatTimeInput,
  parseDateInput,
  parseTimeInput,
} from '../../src/renderer/src/i18n/formats';

describe('dates and times written the way of the interface language', () => {
  it('uses the browser region when it speaks the language, else the language default', () => {
    expect(formatLocale('en', ['en-US', 'it-IT'])).toBe('en-US');
    expect(formatLocale('it', ['en-US', 'it-CH'])).toBe('it-CH');
    expect(formatLocale('en', ['it-IT'])).toBe('en-GB');
    expect(formatLocale('pl', [])).toBe('pl-PL');
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
