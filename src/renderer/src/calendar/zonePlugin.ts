import { createPlugin } from '@fullcalendar/core';
import { NamedTimeZoneImpl } from '@fullcalendar/core/internal';
import { IANAZone } from 'luxon';

const MINUTE = 60_000;
/**
 * Offsets are sampled at the edges of days (UTC): when both edges agree the whole day has that offset (no
 * zone changes its offset and back within a day); when they differ the instant is asked of the zone itself.
 */
const SPAN = 24 * 3_600_000;

/** Milliseconds since the epoch of a wall time read as UTC ([year, month0, day, h, m, s, ms], like FullCalendar). */
function wallToMs(a: number[]): number {
  const year = a[0] ?? 1970;
  const date = new Date(Date.UTC(year, a[1] ?? 0, a[2] ?? 1, a[3] ?? 0, a[4] ?? 0, a[5] ?? 0, a[6] ?? 0));
  // Date.UTC reads years 0-99 as 1900-1999.
  if (year >= 0 && year < 100) date.setUTCFullYear(year);
  return date.getTime();
}

/**
 * The calendar's named time zone, as the luxon plugin computes it but with the offsets remembered: FullCalendar
 * asks for them several times for every event drawn, and each luxon answer costs an Intl formatting (with 300
 * events in a month that was a third of the time to draw it).
 */
export class CachedNamedTimeZone extends NamedTimeZoneImpl {
  private readonly zone: IANAZone;
  /** Offset in minutes at the start of each span asked about, by span number. */
  private readonly atSpanStart = new Map<number, number>();

  constructor(timeZoneName: string) {
    super(timeZoneName);
    this.zone = IANAZone.create(timeZoneName);
  }

  private spanStartOffset(span: number): number {
    let offset = this.atSpanStart.get(span);
    if (offset === undefined) {
      offset = this.zone.offset(span * SPAN);
      this.atSpanStart.set(span, offset);
    }
    return offset;
  }

  /** Minutes east of UTC at the instant `ms`. */
  offsetAt(ms: number): number {
    const span = Math.floor(ms / SPAN);
    const offset = this.spanStartOffset(span);
    return offset === this.spanStartOffset(span + 1) ? offset : this.zone.offset(ms);
  }

  /** The offset of a wall time, resolved as luxon does (a skipped or repeated hour gives the same answer). */
  offsetForArray(a: number[]): number {
    const local = wallToMs(a);
    const guess = this.offsetAt(Date.now());
    let utc = local - guess * MINUTE;
    const second = this.offsetAt(utc);
    if (guess === second) return guess;
    utc -= (second - guess) * MINUTE;
    const third = this.offsetAt(utc);
    return second === third ? second : Math.max(second, third);
  }

  timestampToArray(ms: number): number[] {
    const wall = new Date(ms + this.offsetAt(ms) * MINUTE);
    return [
      wall.getUTCFullYear(),
      wall.getUTCMonth(),
      wall.getUTCDate(),
      wall.getUTCHours(),
      wall.getUTCMinutes(),
      wall.getUTCSeconds(),
      wall.getUTCMilliseconds(),
    ];
  }
}

/** Put after the luxon plugin: the last plugin giving a named time zone is the one FullCalendar uses. */
export const cachedZonePlugin = createPlugin({
  name: 'calendar-desk-cached-zones',
  namedTimeZonedImpl: CachedNamedTimeZone,
});
