import { describe, expect, it } from 'vitest';
import { PresentedBytes } from '../../src/main/server/present/presentedBytes';

/** The parts a list is assembled from stay within their memory budget and are never stale. */
describe('kept presented parts', () => {
  it('make a part again when any of its sources is another object', () => {
    const parts = new PresentedBytes(1_000_000).space('event http://127.0.0.1/');
    const record = { id: 1 };
    const settings = { currency: '$' };
    let made = 0;
    const make = (text: string) => () => {
      made++;
      return text;
    };
    expect(parts.through(1, [record, settings], make('a')).toString()).toBe('a');
    expect(parts.through(1, [record, settings], make('b')).toString()).toBe('a');
    expect(parts.through(1, [record, { currency: '€' }], make('c')).toString()).toBe('c');
    expect(parts.through(1, [{ id: 1 }, settings], make('d')).toString()).toBe('d');
    expect(made).toBe(3);
  });

  it('stay within the byte budget, dropping the oldest unused parts first', () => {
    const budget = new PresentedBytes(10_000);
    const space = budget.space('event http://127.0.0.1/');
    const sources = [{}];
    const kilobyte = (id: number) => () => `${id}`.padEnd(1_000, '.');
    for (let id = 1; id <= 5; id++) space.through(id, sources, kilobyte(id));
    // Part 1 is asked again: when room is needed, part 2 goes first.
    expect(space.through(1, sources, () => 'made again').toString()).toMatch(/^1\./);
    for (let id = 6; id <= 9; id++) space.through(id, sources, kilobyte(id));
    expect(space.through(1, sources, () => 'made again').toString()).toMatch(/^1\./);
    expect(space.through(2, sources, () => 'made again').toString()).toBe('made again');
    for (let id = 10; id <= 40; id++) space.through(id, sources, kilobyte(id));
    expect(budget.bytes).toBeLessThanOrEqual(10_000);
    expect(budget.bytes).toBeGreaterThan(5_000);
    expect(space.through(40, sources, () => 'made again').toString()).toMatch(/^40\./);
    expect(space.through(3, sources, () => 'made again').toString()).toBe('made again');
  });

  it('keep one part per record however often it changes, and still evict in order after many changes', () => {
    const budget = new PresentedBytes(50_000);
    const space = budget.space('event http://127.0.0.1/');
    for (let change = 0; change < 5_000; change++) space.through(1, [{ change }], () => 'x'.repeat(100));
    expect(budget.bytes).toBeLessThan(1_000);
    const sources = [{}];
    for (let id = 2; id <= 200; id++) space.through(id, sources, () => `${id}`.padEnd(1_000, '.'));
    expect(budget.bytes).toBeLessThanOrEqual(50_000);
    // The oldest went first: the newest are still kept, an early one is made again.
    expect(space.through(200, sources, () => 'made again').toString()).toMatch(/^200\./);
    expect(space.through(3, sources, () => 'made again').toString()).toBe('made again');
  });
});
