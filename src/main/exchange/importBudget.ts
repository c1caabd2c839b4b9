import type { CalendarStore } from '../store/store';
import { occurrenceBound, occurrenceCount } from '../core/recurrence/count';
import type { SeriesPattern } from '../core/recurrence/expand';
import { horizonOf } from '../core/recurrence/series';
import { IMPORT_OCCURRENCE_BUDGET, ImportTooLargeError } from './errors';
import type { IcsEvent } from './icsImport';
import { TimeSlices } from '../core/timeSlices';

/**
 * Refuses an .ics import whose events would be more than the budget (issue 26 item 3), before any is made.
 * Each series is first bounded from its rules alone (COUNT, UNTIL, the horizon, the per-series ceiling); only
 * when those bounds pass the budget are the series expanded, a slice at a time, until the real count passes
 * it too (then refused with the bound) or the file is found to fit. Each changed date (RECURRENCE-ID) counts as
 * one more. Answers how many events it makes (or changes) at most.
 */
export async function checkOccurrenceBudget(
  store: CalendarStore,
  file: string,
  events: readonly IcsEvent[],
  now: Date,
  budget = IMPORT_OCCURRENCE_BUDGET,
): Promise<number> {
  const patterns = events.map((event) => {
    const { input } = event;
    const lines = input.recurrence ?? [];
    if (lines.length === 0) return null;
    const timezone = input.timezone!;
    return {
      pattern: { startLocal: String(input.start_date), timezone, allDay: Boolean(input.all_day), lines },
      horizon: horizonOf(store, now, timezone),
    };
  });
  const slices = new TimeSlices();
  const bounds: number[] = [];
  // A changed date (RECURRENCE-ID) is a write of its own: counted too, so that a file of one series with
  // tens of thousands of them is refused as well.
  const changed = events.map((event) => event.overrides.length);
  for (const [index, series] of patterns.entries()) {
    bounds.push((series ? occurrenceBound(series.pattern, series.horizon) : 1) + changed[index]!);
    await slices.pause();
  }
  let rest = bounds.reduce((sum, one) => sum + one, 0);
  if (rest <= budget) return rest;
  // Counted exactly where the bounds leave a doubt: the refusal says the exact count so far plus the bounds
  // of the rest (exact for the usual COUNT and UNTIL rules).
  let counted = 0;
  for (const [index, series] of patterns.entries()) {
    rest -= bounds[index]!;
    counted +=
      (series ? safeCount(series.pattern, series.horizon, bounds[index]! - changed[index]!) : 1) +
      changed[index]!;
    if (counted > budget) throw new ImportTooLargeError(file, counted + rest, budget);
    await slices.pause();
  }
  return counted;
}

/** The series' count; its bound if the write would refuse the series anyway (it reports that itself). */
function safeCount(pattern: SeriesPattern, horizon: string, bound: number): number {
  try {
    return occurrenceCount(pattern, horizon);
  } catch {
    return bound;
  }
}
