import { describe, expect, it } from 'vitest';
import { shownCost } from '../../src/renderer/src/calendar/price';

const site = { currency_symbol: '$', currency_position: 'prefix' } as const;
const none = { currency_symbol: '', currency_position: '' } as const;

describe('the cost our screens show', () => {
  it('is the text as typed, words and all (the API formats `15€ / 10€ reduced` as `10€ – 15€`)', () => {
    expect(shownCost('15€ / 10€ reduced', none, site)).toBe('15€ / 10€ reduced');
    expect(shownCost('Free', none, site)).toBe('Free');
    expect(shownCost('  Donations welcome ', none, site)).toBe('Donations welcome');
    expect(shownCost('', none, site)).toBe('');
  });

  it('writes the currency against amounts typed without one: the event’s own, else the site’s', () => {
    expect(shownCost('15', none, site)).toBe('$15');
    expect(shownCost('10 - 15', none, site)).toBe('$10 - $15');
    expect(shownCost('12,50', none, { currency_symbol: '€', currency_position: 'postfix' })).toBe('12,50€');
    expect(shownCost('8', { currency_symbol: 'zł', currency_position: 'postfix' }, site)).toBe('8zł');
    expect(shownCost('8', { currency_symbol: '£', currency_position: '' }, site)).toBe('£8');
    // Nothing to price: no symbol on a zero.
    expect(shownCost('0', none, site)).toBe('0');
  });

  it('leaves a cost the API formatted (an event the caller may not edit) as it is', () => {
    expect(shownCost('$10 – $15', none, site)).toBe('$10 – $15');
    expect(shownCost('10€ – 15€', none, site)).toBe('10€ – 15€');
  });
});
