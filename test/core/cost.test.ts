import { describe, it, expect } from 'vitest';
import {
  costDetailsValues,
  costWithSymbol,
  DEFAULT_CURRENCY,
  eventCurrency,
  formatCost,
  parseCostInput,
  siteCurrency,
  typedCost,
} from '../../src/main/core/cost';

const site = { symbol: '$', position: 'prefix' as const };

/** Request cost → response `cost` and `cost_details.values`, as the create endpoint would produce them. */
function roundTrip(input: unknown) {
  const parsed = parseCostInput(input);
  if (!parsed) throw new Error('invalid');
  return {
    ...parsed,
    cost: formatCost(parsed.values, parsed.symbol, parsed.position, site),
    details: costDetailsValues(parsed.values),
  };
}

describe('parseCostInput', () => {
  it('infers a postfix symbol', () => {
    expect(parseCostInput('20$')).toEqual({ values: ['20$'], symbol: '$', position: 'postfix' });
    expect(parseCostInput('10,50 €')).toEqual({ values: ['10,50 €'], symbol: '€', position: 'postfix' });
  });

  it('infers a prefix symbol, also across a range', () => {
    expect(parseCostInput('$5 - $15')).toEqual({ values: ['$5 - $15'], symbol: '$', position: 'prefix' });
    expect(parseCostInput('USD 10')).toEqual({ values: ['USD 10'], symbol: 'USD', position: 'prefix' });
    expect(parseCostInput(['$5', '$15'])).toEqual({ values: ['$5', '$15'], symbol: '$', position: 'prefix' });
  });

  it('infers no symbol when there is none or values disagree', () => {
    expect(parseCostInput('15')).toEqual({ values: ['15'], symbol: '', position: '' });
    expect(parseCostInput(['5$', '10€'])).toEqual({ values: ['5$', '10€'], symbol: '', position: '' });
    expect(parseCostInput('10 - 20 per person')).toMatchObject({ symbol: '', position: '' });
    expect(parseCostInput('Free')).toEqual({ values: ['Free'], symbol: '', position: '' });
  });

  it('ignores text-only values when inferring the symbol', () => {
    expect(parseCostInput(['Free', '10€'])).toEqual({
      values: ['Free', '10€'],
      symbol: '€',
      position: 'postfix',
    });
  });

  it('reads the symbol written against every number when the text has words too', () => {
    expect(parseCostInput('20€ / 10€ reduced')).toEqual({
      values: ['20€ / 10€ reduced'],
      symbol: '€',
      position: 'postfix',
    });
    expect(parseCostInput('€10 adults, €5 children')).toMatchObject({ symbol: '€', position: 'prefix' });
    expect(parseCostInput('20€/person')).toMatchObject({ symbol: '€', position: 'postfix' });
    // Different symbols, or a number without one: nothing is guessed.
    expect(parseCostInput('5$ or 10€ at the door')).toMatchObject({ symbol: '', position: '' });
    expect(parseCostInput('20€ or 10 reduced')).toMatchObject({ symbol: '', position: '' });
  });

  it('reads a long worded cost in time linear in its length (an author cannot stall the server)', () => {
    // Words then a space before the number: a backtracking search for the symbol took seconds here.
    const words = `${'a'.repeat(60_000)} b 10`;
    const started = performance.now();
    expect(parseCostInput(words)).toMatchObject({ symbol: '', position: '' });
    expect(parseCostInput(`${'€'.repeat(60_000)} 10€ reduced`)).toMatchObject({
      symbol: '€',
      position: 'postfix',
    });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('leaves the position empty when the symbol sits on both sides', () => {
    expect(parseCostInput(['$5', '10$'])).toEqual({ values: ['$5', '10$'], symbol: '$', position: '' });
  });

  it('accepts numbers and arrays of strings/numbers, trimming and dropping empty items', () => {
    expect(parseCostInput(12.5)).toEqual({ values: ['12.5'], symbol: '', position: '' });
    expect(parseCostInput([5, ' 15 ', ''])).toEqual({ values: ['5', '15'], symbol: '', position: '' });
  });

  it('treats "", [] and null as "no cost"', () => {
    for (const empty of ['', '  ', [], null]) {
      expect(parseCostInput(empty)).toEqual({ values: [], symbol: '', position: '' });
    }
  });

  it('rejects other shapes', () => {
    for (const bad of [undefined, true, {}, { cost: 5 }, [true], [null], [[5]], NaN, Infinity]) {
      expect(parseCostInput(bad)).toBeNull();
    }
  });
});

describe('formatCost', () => {
  it('reference examples', () => {
    expect(formatCost(['23'], '$', 'prefix', site)).toBe('$23');
    expect(formatCost(['20$'], '$', 'postfix', site)).toBe('20$');
    expect(formatCost(['0$', '20$', '30$'], '$', 'postfix', site)).toBe('Free – 30$');
  });

  it('applies the site default when the event has no symbol (samples 11 and 40)', () => {
    expect(formatCost(['15'], '', '', site)).toBe('$15');
    expect(formatCost(['5', '15'], '', '', site)).toBe('$5 – $15');
    expect(formatCost(['15'], '', '', { symbol: '€', position: 'postfix' })).toBe('15€');
    expect(formatCost(['15'], '€', '', site)).toBe('€15');
  });

  it('uses min and max with an en dash, and one value when they are equal', () => {
    expect(formatCost(['30', '10', '20'], '', '', site)).toBe('$10 – $30');
    expect(formatCost(['$5 - $15'], '$', 'prefix', site)).toBe('$5 – $15');
    expect(formatCost(['5', '5.00'], '', '', site)).toBe('$5');
    expect(formatCost(['10', '2'], '', '', site)).toBe('$2 – $10');
  });

  it('says Free for zero, never with a symbol', () => {
    expect(formatCost(['0'], '$', 'prefix', site)).toBe('Free');
    expect(formatCost(['0.00'], '', '', site)).toBe('Free');
    expect(formatCost(['0', '0'], '', '', site)).toBe('Free');
  });

  it('keeps numbers as written', () => {
    expect(formatCost(['10,50 €'], '€', 'postfix', site)).toBe('10,50€');
    expect(formatCost(['1,000'], '', '', site)).toBe('$1,000');
  });

  it('returns a text-only cost as written and "" for none', () => {
    expect(formatCost(['Donation'], '', '', site)).toBe('Donation');
    expect(formatCost(['Free'], '', '', site)).toBe('Free');
    expect(formatCost(['Donation', '10'], '', '', site)).toBe('$10');
    expect(formatCost([], '', '', site)).toBe('');
  });
});

describe('the currency of an event', () => {
  const site = { symbol: '$', position: 'prefix' as const, code: 'USD' };

  it("is the site's where the event has none, and the original's defaults where the site has none", () => {
    const settings = { siteName: '', siteDescription: '', timezone: 'UTC', postsPerPage: 10 };
    expect(siteCurrency(settings)).toEqual(DEFAULT_CURRENCY);
    expect(DEFAULT_CURRENCY).toEqual({ symbol: '$', position: 'prefix', code: 'USD' });
    const euro = {
      ...settings,
      currencySymbol: '€',
      currencyPosition: 'postfix' as const,
      currencyCode: 'EUR',
    };
    expect(siteCurrency(euro)).toEqual({ symbol: '€', position: 'postfix', code: 'EUR' });
    expect(eventCurrency({ currencySymbol: '', currencyPosition: '', currencyCode: '' }, site)).toEqual(site);
    // A file written before events had a code reads as none.
    expect(eventCurrency({ currencySymbol: '', currencyPosition: '' }, site)).toEqual(site);
  });

  it('takes its own symbol, position and code; a symbol that names a currency gives its code', () => {
    expect(
      eventCurrency({ currencySymbol: '€', currencyPosition: 'postfix', currencyCode: '' }, site),
    ).toEqual({
      symbol: '€',
      position: 'postfix',
      code: 'EUR',
    });
    expect(eventCurrency({ currencySymbol: 'Fr.', currencyPosition: '', currencyCode: 'CHF' }, site)).toEqual(
      {
        symbol: 'Fr.',
        position: 'prefix',
        code: 'CHF',
      },
    );
  });

  it('formats "20€ / 10€ reduced" with € after the numbers', () => {
    expect(formatCost(['20€ / 10€ reduced'], '€', 'postfix', site)).toBe('10€ – 20€');
  });

  it('gives the typed text back, and writes the symbol into bare numbers only (for the original plugin)', () => {
    expect(typedCost(['20€ / 10€ reduced'])).toBe('20€ / 10€ reduced');
    expect(typedCost(['0$', '20$'])).toBe('0$, 20$');
    const euro = { symbol: '€', position: 'postfix' as const };
    expect(costWithSymbol(['15', '0', '10,50', '20€ / 10€ reduced', 'Free'], euro)).toEqual([
      '15€',
      '0',
      '10,50€',
      '20€ / 10€ reduced',
      'Free',
    ]);
    expect(costWithSymbol(['15'], { symbol: '$', position: 'prefix' })).toEqual(['$15']);
  });
});

describe('costDetailsValues', () => {
  it('lists every distinct number, ascending, as numeric strings', () => {
    expect(costDetailsValues(['23'])).toEqual(['23']);
    expect(costDetailsValues(['30$', '0$', '20$'])).toEqual(['0', '20', '30']);
    expect(costDetailsValues(['$5 - $15'])).toEqual(['5', '15']);
    expect(costDetailsValues(['10', '9', '100'])).toEqual(['9', '10', '100']);
    expect(costDetailsValues(['5', '5'])).toEqual(['5']);
  });

  it('normalizes decimal commas and thousands separators', () => {
    expect(costDetailsValues(['10,50'])).toEqual(['10.50']);
    expect(costDetailsValues(['1,000'])).toEqual(['1000']);
    expect(costDetailsValues(['1,000.50'])).toEqual(['1000.50']);
    expect(costDetailsValues(['1.000,50 €'])).toEqual(['1000.50']);
    expect(costDetailsValues(['1,000,000'])).toEqual(['1000000']);
    expect(costDetailsValues(['007'])).toEqual(['7']);
  });

  it('is empty for text-only or no cost', () => {
    expect(costDetailsValues(['Free'])).toEqual([]);
    expect(costDetailsValues([])).toEqual([]);
  });
});

describe('request cost → response (REFERENCE §3.3, samples)', () => {
  it('cost "15" → "$15", symbol not recorded (sample 40)', () => {
    expect(roundTrip('15')).toMatchObject({ cost: '$15', symbol: '', position: '', details: ['15'] });
  });

  it('cost "20$" → "20$"', () => {
    expect(roundTrip('20$')).toMatchObject({
      cost: '20$',
      symbol: '$',
      position: 'postfix',
      details: ['20'],
    });
  });

  it('cost [0$,20$,30$] → "Free – 30$" with values 0, 20, 30', () => {
    expect(roundTrip(['0$', '20$', '30$'])).toMatchObject({ cost: 'Free – 30$', details: ['0', '20', '30'] });
  });

  it('cost "$5 - $15" → "$5 – $15" with values 5, 15 (sample 11)', () => {
    expect(roundTrip('$5 - $15')).toMatchObject({ cost: '$5 – $15', details: ['5', '15'] });
  });
});
