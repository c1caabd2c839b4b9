import type { Settings, StoredEvent } from '../store/schema';
import type { CurrencyPosition as Position } from '../../shared/schemas/currency';

/** Where a currency symbol goes; '' = not recorded on the event (the site default applies). */
export type CurrencyPosition = Position | '';

/** A currency as a cost is shown in it. */
export interface Currency {
  symbol: string;
  position: Position;
  /** ISO 4217, for schema.org's `priceCurrency`. */
  code: string;
}

/** The original's defaults for a site that never chose (`defaultCurrencySymbol` `$`, prefix, `USD`). */
export const DEFAULT_CURRENCY: Currency = { symbol: '$', position: 'prefix', code: 'USD' };

/** The site's default currency (Settings screen), the original's defaults where none was chosen. */
export function siteCurrency(settings: Settings): Currency {
  return {
    symbol: settings.currencySymbol ?? DEFAULT_CURRENCY.symbol,
    position: settings.currencyPosition ?? DEFAULT_CURRENCY.position,
    code: settings.currencyCode ?? DEFAULT_CURRENCY.code,
  };
}

/** Symbols that name one currency, so an event priced `20€` on a dollar site is not published as USD. */
const CODE_OF_SYMBOL: Record<string, string> = { '€': 'EUR', '£': 'GBP', zł: 'PLN', CHF: 'CHF', '₹': 'INR' };

type EventCurrencyFields = Pick<StoredEvent, 'currencySymbol' | 'currencyPosition' | 'currencyCode'>;

/** The currency an event's cost is shown in: its own symbol, position and code, else the site's. */
export function eventCurrency(event: EventCurrencyFields, site: Currency): Currency {
  const own = event.currencySymbol;
  const code =
    event.currencyCode || (own && own !== site.symbol ? CODE_OF_SYMBOL[own] : undefined) || site.code;
  return { symbol: own || site.symbol, position: event.currencyPosition || site.position, code };
}

/** A cost as stored on an event: the raw cost texts plus the currency inferred from them (REFERENCE §5.1). */
export interface ParsedCost {
  values: string[];
  symbol: string;
  position: CurrencyPosition;
}

interface CostNumber {
  text: string; // as written, e.g. `10,50`
  numeric: string; // normalized, e.g. `10.50`
  value: number;
}

const NUMBER = /\d+(?:[.,]\d+)*/g;

/** Numbers in a cost text: `,`/`.` is the decimal mark when last and used once (not before exactly 3 digits alone). */
function numbersIn(text: string): CostNumber[] {
  return [...text.matchAll(NUMBER)].map(([token]) => {
    const seps = token.replace(/\d/g, '');
    const last = seps.at(-1) ?? '';
    const lone = seps.length === 1 && !/[.,]\d{3}$/.test(token); // `10,50` is a decimal, `1,000` a thousand
    const isDecimal = last !== '' && seps.indexOf(last) === seps.length - 1 && (seps.length > 1 || lone);
    const cut = isDecimal ? token.lastIndexOf(last) : token.length;
    const whole = token
      .slice(0, cut)
      .replace(/[.,]/g, '')
      .replace(/^0+(?=\d)/, '');
    const numeric = isDecimal ? `${whole}.${token.slice(cut + 1)}` : whole;
    return { text: token, numeric, value: Number(numeric) };
  });
}

/** Validates a request `cost` (string, number or array of those; `null` clears) and infers symbol/position; null if invalid. */
export function parseCostInput(input: unknown): ParsedCost | null {
  const items = Array.isArray(input) ? input : input === null ? [] : [input];
  if (input === undefined || !items.every((v) => typeof v === 'string' || Number.isFinite(v))) return null;
  const values = items.map((v) => String(v).trim()).filter(Boolean);
  const priced = values.filter((v) => numbersIn(v).length > 0);
  const pieces = priced.flatMap((v) =>
    v
      .replace(NUMBER, '')
      .split(/[-–—,;/]/)
      .map((p) => p.trim())
      .filter(Boolean),
  );
  const symbol = pieces.length > 0 && pieces.every((p) => p === pieces[0] && !/\s/.test(p)) ? pieces[0] : '';
  if (!symbol) return { values, ...attachedSymbol(priced) };
  const leads = priced.map((v) => v.startsWith(symbol));
  const position = leads.every(Boolean) ? 'prefix' : leads.some(Boolean) ? '' : 'postfix';
  return { values, symbol, position };
}

/** Characters that end a symbol written against a number: spaces, digits, range and list marks, brackets. */
const NOT_SYMBOL = /[\s\d.,\-–—/;()]/;

/**
 * The symbol characters right before `end` / from `start` on: a scan of those characters only. (A regex such
 * as `[^…]+$` over the text before each number backtracks: a long worded cost took seconds to read.)
 */
function symbolBefore(text: string, end: number): string {
  let start = end;
  while (start > 0 && !NOT_SYMBOL.test(text[start - 1]!)) start--;
  return text.slice(start, end);
}
function symbolAfter(text: string, start: number): string {
  let end = start;
  while (end < text.length && !NOT_SYMBOL.test(text[end]!)) end++;
  return text.slice(start, end);
}

/**
 * The symbol written against every number when the text has words besides it (`20€ / 10€ reduced` → `€`
 * after): the same symbol on the same side of each number, else none.
 */
function attachedSymbol(texts: string[]): Pick<ParsedCost, 'symbol' | 'position'> {
  const found = texts.flatMap((text) =>
    [...text.matchAll(NUMBER)].map((match) => {
      const before = symbolBefore(text, match.index);
      const after = symbolAfter(text, match.index + match[0].length);
      if (before && !after) return `prefix ${before}`;
      if (after && !before) return `postfix ${after}`;
      return '';
    }),
  );
  if (found.length === 0 || found[0] === '' || found.some((entry) => entry !== found[0])) {
    return { symbol: '', position: '' };
  }
  const [position, symbol] = found[0]!.split(' ') as ['prefix' | 'postfix', string];
  return { symbol, position };
}

/**
 * The event `cost` string (REFERENCE §3.3): `$5 – $15`, `Free – 30$`, a text-only cost as written, or '';
 * the event's own symbol and position, else the site's `defaults`.
 */
export function formatCost(
  values: string[],
  symbol: string,
  position: CurrencyPosition,
  defaults: Pick<Currency, 'symbol' | 'position'>,
): string {
  const numbers = values.flatMap(numbersIn).sort((a, b) => a.value - b.value);
  if (numbers.length === 0) return values.map((v) => v.trim()).find(Boolean) ?? '';
  const sym = symbol || defaults.symbol;
  const prefix = (position || defaults.position) === 'prefix';
  const show = (n: CostNumber) => (n.value === 0 ? 'Free' : prefix ? sym + n.text : n.text + sym);
  const min = numbers[0];
  const max = numbers[numbers.length - 1];
  return min!.value === max!.value ? show(min!) : `${show(min!)} – ${show(max!)}`;
}

/** `cost_details.values`: every distinct number in the cost texts as a numeric string, ascending (`['0','20','30']`). */
export function costDetailsValues(values: string[]): string[] {
  const seen = new Map<number, string>();
  for (const n of values.flatMap(numbersIn)) if (!seen.has(n.value)) seen.set(n.value, n.numeric);
  return [...seen.entries()].sort(([a], [b]) => a - b).map(([, numeric]) => numeric);
}

/** The cost as the user typed it, in one text (an API client may have sent several values: comma-separated). */
export function typedCost(values: string[]): string {
  return values.join(', ');
}

const BARE_NUMBER = /^\d+(?:[.,]\d+)*$/;

/**
 * The cost texts with the currency written into bare numbers (`15` → `15€`), for a receiver that reads the
 * currency from the text alone (the original plugin's REST API); texts with words or symbols stay as typed.
 */
export function costWithSymbol(values: string[], currency: Pick<Currency, 'symbol' | 'position'>): string[] {
  return values.map((value) =>
    BARE_NUMBER.test(value) && Number(value.replace(',', '.')) !== 0
      ? currency.position === 'prefix'
        ? currency.symbol + value
        : value + currency.symbol
      : value,
  );
}
