import { describe, expect, it } from 'vitest';
import { currencyOfLocale, machineMoneyLocale, newCalendarCurrency } from '../../src/main/core/machineLocale';

describe('the machine locale a new calendar starts from', () => {
  it('reads LC_ALL, else LC_MONETARY, else LANG, as POSIX does', () => {
    expect(machineMoneyLocale({ LANG: 'de_DE.UTF-8' })).toBe('de-DE');
    expect(machineMoneyLocale({ LANG: 'en_GB.UTF-8', LC_MONETARY: 'cs_CZ.UTF-8' })).toBe('cs-CZ');
    expect(machineMoneyLocale({ LANG: 'en_US', LC_MONETARY: 'cs_CZ', LC_ALL: 'fr_FR@euro' })).toBe('fr-FR');
    // An empty variable is not set.
    expect(machineMoneyLocale({ LC_ALL: '', LANG: 'pl_PL.UTF-8' })).toBe('pl-PL');
  });

  it('"C" and "POSIX" name no country: nothing (the original\'s defaults stay), whatever the system says', () => {
    expect(machineMoneyLocale({ LANG: 'C.UTF-8' }, 'de-DE')).toBeUndefined();
    expect(machineMoneyLocale({ LC_ALL: 'POSIX' }, 'de-DE')).toBeUndefined();
  });

  it('asks the system (Electron, Intl) only when the environment names no locale (Windows, macOS)', () => {
    expect(machineMoneyLocale({}, 'cs-CZ')).toBe('cs-CZ');
    expect(machineMoneyLocale({}, undefined)).toBeUndefined();
    expect(machineMoneyLocale({}, 'not a locale!')).toBeUndefined();
  });
});

describe('the currency of a locale', () => {
  it("is the country's, with the symbol on the side the locale writes it", () => {
    expect(currencyOfLocale('de-DE')).toEqual({ symbol: '€', position: 'postfix', code: 'EUR' });
    expect(currencyOfLocale('cs-CZ')).toEqual({ symbol: 'Kč', position: 'postfix', code: 'CZK' });
    expect(currencyOfLocale('pl-PL')).toEqual({ symbol: 'zł', position: 'postfix', code: 'PLN' });
    expect(currencyOfLocale('en-GB')).toEqual({ symbol: '£', position: 'prefix', code: 'GBP' });
    expect(currencyOfLocale('en-US')).toEqual({ symbol: '$', position: 'prefix', code: 'USD' });
    expect(currencyOfLocale('it-IT')).toEqual({ symbol: '€', position: 'postfix', code: 'EUR' });
    expect(currencyOfLocale('en-IE')).toEqual({ symbol: '€', position: 'prefix', code: 'EUR' });
    expect(currencyOfLocale('de-CH')).toEqual({ symbol: 'CHF', position: 'prefix', code: 'CHF' });
  });

  it("takes the language's usual country when the locale names none (cs → CZ, es → ES)", () => {
    expect(currencyOfLocale('cs')?.code).toBe('CZK');
    expect(currencyOfLocale('es')?.code).toBe('EUR');
  });

  it('gives nothing for a country it does not know, or no locale', () => {
    expect(currencyOfLocale('en-001')).toBeUndefined();
    expect(currencyOfLocale(undefined)).toBeUndefined();
  });

  it('makes the settings of a new calendar, or none', () => {
    expect(newCalendarCurrency({ LANG: 'cs_CZ.UTF-8' })).toEqual({
      currencySymbol: 'Kč',
      currencyPosition: 'postfix',
      currencyCode: 'CZK',
    });
    expect(newCalendarCurrency({ LANG: 'C.UTF-8' })).toEqual({});
  });
});
