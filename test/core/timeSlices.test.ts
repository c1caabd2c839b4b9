import { afterEach, describe, expect, it } from 'vitest';
import { TimeSlices } from '../../src/main/core/timeSlices';

/**
 * Sliced work (searches over thousands of events, large imports) shares one queue: one slice per turn of the
 * event loop, whoever asks. Were each caller to wait for a turn of its own, one turn would run a slice of each
 * caller back to back and hold every other request that long (issue 32).
 */
describe('time slices', () => {
  let ticking = false;
  afterEach(() => {
    ticking = false;
  });

  /** Counts the event loop's turns: an immediate that schedules itself runs once per turn. */
  function turnCounter(): () => number {
    let turn = 0;
    ticking = true;
    const tick = () => {
      turn += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    return () => turn;
  }

  /** Work of `steps` slices that records who ran in which turn. */
  async function work(
    name: string,
    steps: number,
    log: Array<{ name: string; turn: number }>,
    turn: () => number,
    busyMs = 0,
  ) {
    const slices = new TimeSlices(0);
    for (let step = 0; step < steps; step++) {
      await slices.pause();
      log.push({ name, turn: turn() });
      const until = performance.now() + busyMs;
      while (performance.now() < until); // a slice's work
    }
  }

  it('runs one slice per turn, taking turns between two works running at once', async () => {
    const turn = turnCounter();
    const log: Array<{ name: string; turn: number }> = [];
    await Promise.all([work('search', 4, log, turn), work('import', 4, log, turn)]);

    expect(log.map((entry) => entry.name)).toEqual([
      'search',
      'import',
      'search',
      'import',
      'search',
      'import',
      'search',
      'import',
    ]);
    const turns = log.map((entry) => entry.turn);
    expect(new Set(turns).size).toBe(turns.length);
  });

  it('lets a request that arrives meanwhile be answered between two slices', async () => {
    const turn = turnCounter();
    const log: Array<{ name: string; turn: number }> = [];
    const answered: number[] = [];
    // Something due 1 ms from now (a timer; a request's socket is read in the same loop), while work of five
    // slices of 3 ms each runs: it is served before the work ends, not after it.
    setTimeout(() => answered.push(turn()), 0);
    await work('search', 5, log, turn, 3);
    expect(answered).toHaveLength(1);
    expect(answered[0]).toBeLessThan(log.at(-1)!.turn);
  });

  it('does not pause before the slice is used up', async () => {
    const slices = new TimeSlices(60_000);
    let sameTurn = true;
    setImmediate(() => {
      sameTurn = false;
    });
    for (let step = 0; step < 100; step++) await slices.pause();
    expect(sameTurn).toBe(true);
  });
});
