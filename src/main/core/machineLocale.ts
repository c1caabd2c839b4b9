import type { Settings } from '../store/schema';
import type { Currency } from './cost';

/** The currency fields of a new calendar's settings (all absent: the original's defaults, `$` USD). */
export type NewCalendarCurrency = Pick<Settings, 'currencySymbol' | 'currencyPosition' | 'currencyCode'>;

/**
 * What a brand-new calendar learns from the machine's locale: its default currency (a calendar opened on a
 * German system prices in euros after the amount, a Czech one in Kč, a Polish one in zł). Only a new data folder
 * takes it; a calendar's stored settings never change with the machine.
 */

/**
 * The machine's locale for money, as a BCP 47 tag (de-DE), or undefined when it says nothing. POSIX order:
 * LC_ALL, else LC_MONETARY, else LANG (`de_DE.UTF-8`, `cs_CZ`, `fr_FR@euro`). A machine whose environment names
 * none of them (Windows, macOS apps) is asked through `fallback` (Electron's system locale, else Intl's); "C" and
 * "POSIX" name no country, so they give nothing (the original's defaults stay).
 */
export function machineMoneyLocale(env: NodeJS.ProcessEnv, fallback?: string): string | undefined {
  const posix = [env.LC_ALL, env.LC_MONETARY, env.LANG].find((value) => value !== undefined && value !== '');
  if (posix !== undefined) return posixToTag(posix);
  return fallback ? tagOf(fallback) : undefined;
}

/** `de_DE.UTF-8@euro` → `de-DE`; undefined for C, POSIX and anything Intl does not read as a locale. */
function posixToTag(value: string): string | undefined {
  const name = value.split(/[.@]/)[0];
  if (name === '' || name === 'C' || name === 'POSIX') return undefined;
  return tagOf(name!.replace(/_/g, '-'));
}

function tagOf(value: string): string | undefined {
  try {
    return new Intl.Locale(value).toString();
  } catch {
    return undefined;
  }
}

/** ISO 4217 code of each country's (or territory's) everyday currency, for the countries people set up. */
const EURO = 'AD AT BE BG CY DE EE ES FI FR GR HR IE IT LT LU LV MC ME MT NL PT SI SK SM VA XK'.split(' ');
const CURRENCY_OF_REGION: Readonly<Record<string, string>> = {
  ...Object.fromEntries(EURO.map((region) => [region, 'EUR'])),
  AL: 'ALL',
  AR: 'ARS',
  AU: 'AUD',
  BA: 'BAM',
  BR: 'BRL',
  BY: 'BYN',
  CA: 'CAD',
  CH: 'CHF',
  CL: 'CLP',
  CN: 'CNY',
  CO: 'COP',
  CZ: 'CZK',
  DK: 'DKK',
  GB: 'GBP',
  HU: 'HUF',
  IL: 'ILS',
  IN: 'INR',
  IS: 'ISK',
  JP: 'JPY',
  KR: 'KRW',
  LI: 'CHF',
  MD: 'MDL',
  MK: 'MKD',
  MX: 'MXN',
  NO: 'NOK',
  NZ: 'NZD',
  PE: 'PEN',
  PL: 'PLN',
  RO: 'RON',
  RS: 'RSD',
  RU: 'RUB',
  SE: 'SEK',
  TR: 'TRY',
  UA: 'UAH',
  US: 'USD',
  UY: 'UYU',
  ZA: 'ZAR',
};

/**
 * The currency a locale's country uses, with the symbol and its side as that locale writes prices
 * (de-DE → € after the amount, en-GB → £ before, cs-CZ → Kč after); undefined when the country is not known.
 * A tag without a country takes the language's usual one (de → DE, cs → CZ).
 */
export function currencyOfLocale(tag: string | undefined): Currency | undefined {
  if (!tag) return undefined;
  let locale: Intl.Locale;
  try {
    locale = new Intl.Locale(tag);
  } catch {
    return undefined;
  }
  const region = locale.region ?? locale.maximize().region;
  const code = region ? CURRENCY_OF_REGION[region] : undefined;
  if (!code) return undefined;
  const parts = new Intl.NumberFormat(locale.toString(), { style: 'currency', currency: code }).formatToParts(
    12,
  );
  const symbolAt = parts.findIndex((part) => part.type === 'currency');
  const amountAt = parts.findIndex((part) => part.type === 'integer');
  return {
    symbol: parts[symbolAt]!.value,
    position: symbolAt < amountAt ? 'prefix' : 'postfix',
    code,
  };
}

/** The currency settings a new data folder starts with on this machine (none: the original's defaults). */
export function newCalendarCurrency(env: NodeJS.ProcessEnv, fallback?: string): NewCalendarCurrency {
  const currency = currencyOfLocale(machineMoneyLocale(env, fallback));
  return currency
    ? { currencySymbol: currency.symbol, currencyPosition: currency.position, currencyCode: currency.code }
    : {};
}
