/** Where a currency symbol goes; '' = not recorded on the event (the site default applies). */
export type CurrencyPosition = 'prefix' | 'postfix' | '';

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
  if (!symbol) return { values, symbol: '', position: '' };
  const leads = priced.map((v) => v.startsWith(symbol));
  const position = leads.every(Boolean) ? 'prefix' : leads.some(Boolean) ? '' : 'postfix';
  return { values, symbol, position };
}

/** The event `cost` string (REFERENCE §3.3): `$5 – $15`, `Free – 30$`, a text-only cost as written, or ''. */
export function formatCost(
  values: string[],
  symbol: string,
  position: CurrencyPosition,
  defaults: { symbol: string; position: 'prefix' | 'postfix' },
): string {
  const numbers = values.flatMap(numbersIn).sort((a, b) => a.value - b.value);
  if (numbers.length === 0) return values.map((v) => v.trim()).find(Boolean) ?? '';
  const sym = symbol || defaults.symbol;
  const prefix = (position || defaults.position) === 'prefix';
  const show = (n: CostNumber) => (n.value === 0 ? 'Free' : prefix ? sym + n.text : n.text + sym);
  const min = numbers[0];
  const max = numbers[numbers.length - 1];
  return min.value === max.value ? show(min) : `${show(min)} – ${show(max)}`;
}

/** `cost_details.values`: every distinct number in the cost texts as a numeric string, ascending (`['0','20','30']`). */
export function costDetailsValues(values: string[]): string[] {
  const seen = new Map<number, string>();
  for (const n of values.flatMap(numbersIn)) if (!seen.has(n.value)) seen.set(n.value, n.numeric);
  return [...seen.entries()].sort(([a], [b]) => a - b).map(([, numeric]) => numeric);
}
