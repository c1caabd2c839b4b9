import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { CachedNamedTimeZone } from '../../src/renderer/src/calendar/zonePlugin';

// The calendar draws events at the times these give: they must be luxon's answers, across every kind of change
// of offset (summer time in both hemispheres, a half-hour change, a zone that skipped a whole day).
const ZONES = ['Europe/Rome', 'America/Sao_Paulo', 'Australia/Lord_Howe', 'Pacific/Apia', 'America/New_York'];
const HOUR = 3_600_000;

function luxonOffsetForArray(zone: string, a: number[]): number {
  const [year, month, day, hour, minute, second, millisecond] = a;
  return DateTime.fromObject({ year, month: month + 1, day, hour, minute, second, millisecond }, { zone })
    .offset;
}

function luxonArray(zone: string, ms: number): number[] {
  const d = DateTime.fromMillis(ms, { zone });
  return [d.year, d.month - 1, d.day, d.hour, d.minute, d.second, d.millisecond];
}

describe('the calendar time zone with remembered offsets', () => {
  for (const name of ZONES) {
    it(`gives luxon's wall times and offsets in ${name}, through its changes of offset`, () => {
      const zone = new CachedNamedTimeZone(name);
      const check = (ms: number) => {
        const wall = zone.timestampToArray(ms);
        expect(wall).toEqual(luxonArray(name, ms));
        // The same digits read back as a wall time, and the wall time an hour later (inside skipped hours).
        expect(zone.offsetForArray(wall)).toBe(luxonOffsetForArray(name, wall));
        const later = [...wall];
        later[3] = (later[3] + 1) % 24;
        expect(zone.offsetForArray(later)).toBe(luxonOffsetForArray(name, later));
      };
      // A year in steps of a few hours, and every 7 minutes (plus some seconds) for 6 hours around each change.
      const from = Date.UTC(2011, 0, 1);
      const to = Date.UTC(2012, 0, 1);
      let changes = 0;
      for (let ms = from; ms < to; ms += 2 * HOUR + 13_457) {
        check(ms);
        if (
          DateTime.fromMillis(ms, { zone: name }).offset ===
          DateTime.fromMillis(ms + 2 * HOUR, { zone: name }).offset
        )
          continue;
        changes += 1;
        for (let near = ms - 2 * HOUR; near < ms + 4 * HOUR; near += 7 * 60_000 + 13_457) check(near);
      }
      // Two changes a year (summer time), or one (Samoa's skipped day, Sao Paulo's end of summer time).
      expect(changes).toBeGreaterThanOrEqual(1);
    });
  }

  it('answers for instants asked out of order and far apart', () => {
    const zone = new CachedNamedTimeZone('Europe/Rome');
    for (const ms of [
      Date.UTC(2026, 9, 25, 0, 59),
      Date.UTC(1999, 2, 28, 1, 0),
      Date.UTC(2026, 9, 25, 1, 0),
    ]) {
      expect(zone.timestampToArray(ms)).toEqual(luxonArray('Europe/Rome', ms));
      expect(zone.timestampToArray(ms + HOUR)).toEqual(luxonArray('Europe/Rome', ms + HOUR));
    }
  });
});
