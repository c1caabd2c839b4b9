import { DateTime, type Zone } from 'luxon';
// @ts-expect-error -- locutus ships no type declarations; the signature is restated below.
import locutusStrtotime from 'locutus/php/datetime/strtotime.js';
import { canonicalSqlMs } from './sqlDates';
import { atWallClock, instantAtWallClock, toLuxonZone, wallOf } from './zones';

/*
 * Dates as the original reads them (PHP's strtotime, through the locutus port): timestamps, ISO and SQL forms,
 * and English relative forms counted from now on the wall clock of a zone, with the PHP forms locutus lacks.
 */

/** PHP's strtotime (locutus port): seconds, or false when the text is not understood. */
const phpStrtotime = locutusStrtotime as (text: string, now: number) => number | false;

/**
 * Runs locutus' strtotime and reports whether the text named its own zone/offset ('UTC', 'EST', '+0200', '@ts').
 * locutus only calls Date#getTimezoneOffset when a zone was parsed (to apply it), and exposes no other way to
 * tell; so the method is wrapped for the duration of this synchronous call.
 */
function strtotimeWithZoneFlag(text: string, now: number): { seconds: number; zoned: boolean } | null {
  const proto = Date.prototype;
  // Called with each date as `this`, as the method it stands in for.
  const original = Object.getOwnPropertyDescriptor(proto, 'getTimezoneOffset')!.value as (
    this: Date,
  ) => number;
  let zoned = false;
  proto.getTimezoneOffset = function (this: Date) {
    zoned = true;
    return original.call(this);
  };
  try {
    const seconds = phpStrtotime(text, now);
    return seconds === false || !Number.isFinite(seconds) ? null : { seconds, zoned };
  } catch {
    return null;
  } finally {
    proto.getTimezoneOffset = original;
  }
}

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
// locutus gives every "<ordinal> <weekday>" PHP's 'this' behaviour, so 'next wednesday' said on a Wednesday is
// today; PHP (timelib behaviour 0) means the first such weekday strictly after the base date, a week later.
// The fix-up below assumes the base date is today (a text naming both a date and 'next <weekday>' is nonsense).
const NEXT_WEEKDAY =
  /\b(?:next|first|second|third|fourth|fifth|sixth|seventh|eighth?|ninth|tenth|eleventh|twelfth)[ \t]+(sun|mon|tue|wed|thu|fri|sat)[a-z]*\b/i;

/** strtotime semantics in `zone`: relative forms count from `now` as seen on the wall clock of `zone`. */
function strtotimeInZone(text: string, zone: Zone, now: Date): DateTime | null {
  const nowWall = DateTime.fromJSDate(now, { zone });
  // locutus computes on the process-local clock (the app pins TZ=UTC): hand it a `now` whose local fields are
  // the zone's wall clock, and read its result's local fields back as a wall clock of the zone.
  const localNow = new Date(
    nowWall.year,
    nowWall.month - 1,
    nowWall.day,
    nowWall.hour,
    nowWall.minute,
    nowWall.second,
  );
  const parsed = strtotimeWithZoneFlag(text, Math.floor(localNow.getTime() / 1000));
  if (!parsed) return null;
  if (parsed.zoned) return DateTime.fromSeconds(parsed.seconds, { zone });
  const r = new Date(parsed.seconds * 1000);
  const next = NEXT_WEEKDAY.exec(text);
  if (next && WEEKDAYS.indexOf(next[1]!.toLowerCase()) === nowWall.weekday % 7) r.setDate(r.getDate() + 7);
  return atWallClock(
    {
      year: r.getFullYear(),
      month: r.getMonth() + 1,
      day: r.getDate(),
      hour: r.getHours(),
      minute: r.getMinutes(),
      second: r.getSeconds(),
    },
    zone,
  );
}

const WEEKDAY_NAME = '(sun|mon|tue|wed|thu|fri|sat)[a-z]*';
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth'];
// PHP forms the strtotime port lacks: "<ordinal>|last <weekday> of <month>" and "<weekday> this|next|last week",
// each optionally followed by a time of day.
const WEEKDAY_OF = new RegExp(
  `^(${ORDINALS.join('|')}|last)\\s+${WEEKDAY_NAME}\\s+of\\s+(.+?)(?:\\s+(\\d{1,2}(?::\\d{2})?\\s*[ap]\\.?m\\.?|\\d{1,2}:\\d{2}(?::\\d{2})?|noon|midnight))?$`,
  'i',
);
const WEEKDAY_WEEK = new RegExp(`^${WEEKDAY_NAME}\\s+(this|next|last|previous)\\s+week(?:\\s+(.+))?$`, 'i');

/** The forms above, as a date in `zone` (time 00:00 unless one is given); undefined when the text is another form. */
function weekdayForms(text: string, zone: Zone, now: Date): DateTime | null | undefined {
  const nowWall = DateTime.fromJSDate(now, { zone });
  let day: DateTime | null = null;
  let time: string | undefined;
  const of = WEEKDAY_OF.exec(text);
  const week = WEEKDAY_WEEK.exec(text);
  if (of) {
    const month = strtotimeInZone(`first day of ${of[3]}`, zone, now);
    if (!month) return null;
    const weekday = WEEKDAYS.indexOf(of[2]!.toLowerCase()) || 7; // Luxon: Monday 1 … Sunday 7
    if (of[1]!.toLowerCase() === 'last') {
      const last = month.endOf('month').startOf('day');
      day = last.minus({ days: (last.weekday - weekday + 7) % 7 });
    } else {
      const first = month.startOf('month');
      day = first.plus({
        days: (weekday - first.weekday + 7) % 7,
        weeks: ORDINALS.indexOf(of[1]!.toLowerCase()),
      });
      if (day.month !== first.month) return null;
    }
    time = of[4];
  } else if (week) {
    const weekday = WEEKDAYS.indexOf(week[1]!.toLowerCase()) || 7;
    const shift = { this: 0, next: 1, last: -1, previous: -1 }[week[2]!.toLowerCase() as 'this'] ?? 0;
    day = nowWall
      .startOf('day')
      .minus({ days: nowWall.weekday - 1 })
      .plus({ weeks: shift, days: weekday - 1 });
    time = week[3];
  } else {
    return undefined;
  }
  if (!time) return day.startOf('day');
  return strtotimeInZone(`${day.toFormat('yyyy-MM-dd')} ${time}`, zone, now);
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Parses a date the way TEC does (PHP strtotime) in time zone `zone`, relative forms counting from `now`:
 * timestamps, ISO 8601 / SQL forms (own offset honoured) and English relative forms. Null when unparseable.
 */
export function parseDateInput(input: string | number, zone: string, now: Date): DateTime | null {
  const z = toLuxonZone(zone);
  if (typeof input === 'number' || /^-?\d+$/.test(input.trim())) {
    const dt = DateTime.fromSeconds(Number(input), { zone: z });
    return dt.isValid ? dt : null;
  }
  const text = input.trim();
  if (text === '') return null; // locutus answers "now" for '', PHP answers false
  // A bare date is its midnight (as Luxon's ISO reading has it), without building a DateTime to find it.
  const wall = canonicalSqlMs(DATE_ONLY.test(text) ? `${text} 00:00:00` : text);
  const instant = wall === null ? null : instantAtWallClock(wall, z);
  if (instant !== null) return DateTime.fromMillis(instant, { zone: z });
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) {
    // ISO/SQL first: Luxon knows zone names and offsets in them (locutus does not know 'Europe/Berlin').
    const opts = { zone: z, setZone: true };
    for (const dt of [DateTime.fromISO(text, opts), DateTime.fromSQL(text, opts)]) {
      if (!dt.isValid) continue;
      // Same zone back means the text had no offset of its own: a wall clock in `zone`.
      return dt.zone.equals(z) ? atWallClock(wallOf(dt), z) : dt.setZone(z);
    }
  }
  const special = weekdayForms(text, z, now);
  return special !== undefined ? special : strtotimeInZone(text, z, now);
}

/** WordPress' is_time: a number (timestamp) or a string strtotime understands. */
export function isTime(input: unknown): boolean {
  if (typeof input === 'number') return Number.isFinite(input);
  if (typeof input !== 'string') return false;
  // The usual SQL/ISO wall clock, without the DateTime parseDateInput would build for it (same verdict).
  const text = input.trim();
  if (text !== '' && !/^-?\d+$/.test(text)) {
    const wall = canonicalSqlMs(text);
    if (wall !== null && instantAtWallClock(wall, toLuxonZone('UTC')) !== null) return true;
  }
  // Whether a text parses does not depend on the clock, so any fixed `now` will do.
  return parseDateInput(input, 'UTC', new Date(0)) !== null;
}
