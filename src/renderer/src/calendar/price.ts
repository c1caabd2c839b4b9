import type { CurrencyPosition } from '../../../shared/schemas/currency';

/** `10` with a currency symbol on one side: how a position choice looks (`€10`, `10€`). */
export function priceExample(symbol: string, position: CurrencyPosition): string {
  return position === 'prefix' ? `${symbol}10` : `10${symbol}`;
}
