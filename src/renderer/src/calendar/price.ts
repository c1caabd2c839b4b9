import type { CurrencyPosition, SiteCurrency } from '../../../shared/schemas/currency';

/** `10` with a currency symbol on one side: how a position choice looks (`€10`, `10€`). */
export function priceExample(symbol: string, position: CurrencyPosition): string {
  return position === 'prefix' ? `${symbol}10` : `10${symbol}`;
}

/** The original's defaults (`$`, before the amount), until the site's settings are read. */
export const DEFAULT_SITE_CURRENCY: SiteCurrency = {
  currency_symbol: '$',
  currency_position: 'prefix',
  currency_code: 'USD',
};

const AMOUNT = /\d+(?:[.,]\d+)*/g;
/** A cost of amounts alone (`15`, `10 - 15`, `5 / 8`): numbers and the marks between them, no symbol, no word. */
const AMOUNTS_ONLY = /^\d+(?:[.,]\d+)*(?:\s*[-–—/;,]\s*\d+(?:[.,]\d+)*)*$/;
const ZERO = /^0+(?:[.,]0+)?$/;

/** An event's own currency (`cost_details`; '' = none of its own). */
export interface EventCurrency {
  currency_symbol: string;
  currency_position: CurrencyPosition | '';
}

/**
 * An event's cost as our own screens show it: as the user typed it (`15€ / 10€ reduced`, `Free`, `Donations
 * welcome`), with the currency written against amounts typed without one (`15` → `$15`, `10 - 15` →
 * `$10 - $15`): the event's own symbol and position, else the site's. `cost` is what the API answers with
 * `context=edit` (as typed, to those who may edit the event); the original's formatted cost (`10€ – 15€`,
 * for anyone else) has its symbols already and is shown as it is.
 */
export function shownCost(
  cost: string,
  own: EventCurrency,
  site: Pick<SiteCurrency, 'currency_symbol' | 'currency_position'>,
): string {
  const text = cost.trim();
  if (!AMOUNTS_ONLY.test(text)) return text;
  const symbol = own.currency_symbol || site.currency_symbol;
  const prefix = (own.currency_position || site.currency_position) === 'prefix';
  return text.replace(AMOUNT, (amount) =>
    ZERO.test(amount) ? amount : prefix ? `${symbol}${amount}` : `${amount}${symbol}`,
  );
}
