import { DateTime, FixedOffsetZone, IANAZone, Zone } from 'luxon';
// @ts-expect-error -- locutus ships no type declarations; the signature is restated below.
import locutusStrtotime from 'locutus/php/datetime/strtotime.js';

/** PHP's strtotime (locutus port): seconds, or false when the text is not understood. */
const phpStrtotime = locutusStrtotime as (text: string, now: number) => number | false;

export type SqlDate = string; // 'YYYY-MM-DD HH:mm:ss'

const SQL_FORMAT = 'yyyy-MM-dd HH:mm:ss';
const ZERO_DATE = '0000-00-00 00:00:00'; // WordPress' "no date" (e.g. date_gmt of drafts)

// WordPress offset zones: 'UTC+5', 'UTC-3:30', 'UTC+5.5' (half hours written as decimals), also bare '+02:00'.
const OFFSET_ZONE = /^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2})|(\.\d+))?$/i;

const QUARTER_HOUR_MS = 15 * 60_000;
// About 11 years of quarter hours per zone: a calendar spanning years is converted without the memo thrashing.
const OFFSETS_PER_ZONE = 400_000;

/**
 * An IANA zone whose UTC offsets are remembered per quarter hour. Luxon asks Intl for every offset, which
 * costs microseconds each and adds up when a page of events converts hundreds of dates; offsets only change
 * at transitions, and those fall on quarter hours of UTC.
 */
class MemoizedZone extends Zone {
  private readonly offsets = new Map<number, number>();

  constructor(private readonly inner: IANAZone) {
    super();
  }

  override get type() {
    return this.inner.type;
  }
  override get name() {
    return this.inner.name;
  }
  override get isUniversal() {
    return this.inner.isUniversal;
  }
  override get isValid() {
    return this.inner.isValid;
  }
  override offsetName(ts: number, options: Parameters<Zone['offsetName']>[1]) {
    return this.inner.offsetName(ts, options);
  }
  override formatOffset(ts: number, format: Parameters<Zone['formatOffset']>[1]) {
    return this.inner.formatOffset(ts, format);
  }
  override offset(ts: number): number {
    const bucket = Math.floor(ts / QUARTER_HOUR_MS);
    let offset = this.offsets.get(bucket);
    if (offset === undefined) {
      if (this.offsets.size >= OFFSETS_PER_ZONE) this.offsets.clear();
      offset = this.inner.offset(bucket * QUARTER_HOUR_MS);
      this.offsets.set(bucket, offset);
    }
    return offset;
  }
  override equals(other: Zone): boolean {
    return other instanceof MemoizedZone ? other.name === this.name : this.inner.equals(other);
  }
}

// Checking an IANA name builds an Intl.DateTimeFormat (slow, and its memory lingers): every record presented
// would pay it several times. The zone strings in use are few, so parsed zones are kept (bounded).
const ZONE_CACHE = new Map<string, Zone | null>();
const ZONE_CACHE_LIMIT = 500;

/** Parses a WordPress-style time zone string into a Luxon zone, or null (cached). */
function parseZone(tz: string): Zone | null {
  let zone = ZONE_CACHE.get(tz);
  if (zone === undefined) {
    if (ZONE_CACHE.size >= ZONE_CACHE_LIMIT) ZONE_CACHE.clear();
    zone = parseZoneUncached(tz);
    ZONE_CACHE.set(tz, zone);
  }
  return zone;
}

function parseZoneUncached(tz: string): Zone | null {
  const m = OFFSET_ZONE.exec(tz);
  if (m) {
    const minutes = Number(m[2]) * 60 + (m[3] ? Number(m[3]) : m[4] ? Math.round(Number(m[4]) * 60) : 0);
    if (minutes > 14 * 60 || (m[3] && Number(m[3]) >= 60)) return null;
    return FixedOffsetZone.instance(m[1] === '-' ? -minutes : minutes);
  }
  return IANAZone.isValidZone(tz) ? new MemoizedZone(IANAZone.create(tz)) : null;
}

/** True for IANA names, 'UTC' and offset zones such as 'UTC+5', 'UTC-3:30', 'UTC+5.5', '+02:00'; '' is invalid. */
export function isValidTimezone(tz: string): boolean {
  return parseZone(tz) !== null;
}

/** The Luxon zone of a WordPress-style time zone string; throws when invalid. */
export function toLuxonZone(tz: string): Zone {
  const zone = parseZone(tz);
  if (!zone) throw new Error(`Invalid time zone: ${JSON.stringify(tz)}`);
  return zone;
}

type WallClock = { year: number; month: number; day: number; hour: number; minute: number; second: number };

// Fast paths. Luxon's SQL parser, `fromObject` and formatter cost tens of microseconds per date, and every event
// written or presented converts several. Canonical 'Y-m-d H:i:s' texts of years 1000–9998 (everything stored)
// are converted here with Date arithmetic and the zone's offsets, by exactly Luxon's rules; anything else, and
// spring-forward gaps, take the Luxon path.
const CANONICAL_SQL = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Milliseconds of a canonical SQL wall clock read as UTC, or null for anything else (Luxon decides then). */
function canonicalSqlMs(sql: string): number | null {
  const m = CANONICAL_SQL.exec(sql);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (year < 1000 || year > 9998 || month < 1 || month > 12 || day < 1) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  // Day 31 of a 30-day month rolls over: not a real date.
  return new Date(ms).getUTCDate() === day ? ms : null;
}

/** 'Y-m-d H:i:s' of a UTC wall clock in milliseconds; null outside years 0000–9999. */
function sqlOfMs(ms: number): SqlDate | null {
  const iso = new Date(ms).toISOString();
  return iso.length === 24 ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : null;
}

/** `atWallClock`'s instant for a wall clock given as UTC milliseconds; null in a spring-forward gap. */
function instantAtWallClock(asUtc: number, zone: Zone): number | null {
  const day = 86_400_000;
  let earliest: number | null = null;
  for (const probe of [asUtc - day, asUtc, asUtc + day]) {
    const instant = asUtc - zone.offset(probe) * 60_000;
    if (asUtc - instant === zone.offset(instant) * 60_000 && (earliest === null || instant < earliest))
      earliest = instant;
  }
  return earliest;
}

/**
 * The instant showing `wall` in `zone`. On a fall-back repeat the earlier instant wins (as in PHP); in a
 * spring-forward gap the time moves forward by the gap length (Luxon's rule, also PHP's).
 */
function atWallClock(wall: WallClock, zone: Zone): DateTime {
  const asUtc = DateTime.fromObject(wall, { zone: 'utc' }).toMillis();
  const day = 86_400_000;
  const matches = [asUtc - day, asUtc, asUtc + day]
    .map((probe) => asUtc - zone.offset(probe) * 60_000)
    .filter((instant) => asUtc - instant === zone.offset(instant) * 60_000);
  if (matches.length) return DateTime.fromMillis(Math.min(...matches), { zone });
  return DateTime.fromObject(wall, { zone });
}

/**
 * Runs locutus' strtotime and reports whether the text named its own zone/offset ('UTC', 'EST', '+0200', '@ts').
 * locutus only calls Date#getTimezoneOffset when a zone was parsed (to apply it), and exposes no other way to
 * tell; so the method is wrapped for the duration of this synchronous call.
 */
function strtotimeWithZoneFlag(text: string, now: number): { seconds: number; zoned: boolean } | null {
  const proto = Date.prototype;
  const original = proto.getTimezoneOffset;
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
  if (next && WEEKDAYS.indexOf(next[1].toLowerCase()) === nowWall.weekday % 7) r.setDate(r.getDate() + 7);
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
    const weekday = WEEKDAYS.indexOf(of[2].toLowerCase()) || 7; // Luxon: Monday 1 … Sunday 7
    if (of[1].toLowerCase() === 'last') {
      const last = month.endOf('month').startOf('day');
      day = last.minus({ days: (last.weekday - weekday + 7) % 7 });
    } else {
      const first = month.startOf('month');
      day = first.plus({
        days: (weekday - first.weekday + 7) % 7,
        weeks: ORDINALS.indexOf(of[1].toLowerCase()),
      });
      if (day.month !== first.month) return null;
    }
    time = of[4];
  } else if (week) {
    const weekday = WEEKDAYS.indexOf(week[1].toLowerCase()) || 7;
    const shift = { this: 0, next: 1, last: -1, previous: -1 }[week[2].toLowerCase() as 'this'] ?? 0;
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

function wallOf(dt: DateTime): WallClock {
  return { year: dt.year, month: dt.month, day: dt.day, hour: dt.hour, minute: dt.minute, second: dt.second };
}

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
  const wall = canonicalSqlMs(text);
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

/** 'Y-m-d H:i:s' of `dt` in its own zone. */
export function formatSql(dt: DateTime): SqlDate {
  return (dt.isValid ? sqlOfMs(dt.toMillis() + dt.offset * 60_000) : null) ?? dt.toFormat(SQL_FORMAT);
}

/** The instant of a 'Y-m-d H:i:s' wall clock in `zone` (throws on malformed input). */
export function sqlToDateTime(sql: SqlDate, zone: string): DateTime {
  const z = toLuxonZone(zone);
  const asUtc = canonicalSqlMs(sql);
  const instant = asUtc === null ? null : instantAtWallClock(asUtc, z);
  if (instant !== null) return DateTime.fromMillis(instant, { zone: z });
  const wall = DateTime.fromSQL(sql, { zone: 'utc' });
  if (!wall.isValid) throw new Error(`Invalid SQL date: ${JSON.stringify(sql)}`);
  return atWallClock(wallOf(wall), z);
}

/** The `*_details` object of a 'Y-m-d H:i:s' string: zero-padded parts (epoch parts when unparseable, as PHP). */
export function dateDetails(sql: SqlDate): {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
} {
  const m = /^(\d{1,4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2}))?)?/.exec(sql.trim()) ?? [
    '',
    '1970',
    '1',
    '1',
  ];
  const pad = (v: string | undefined, n = 2) => (v ?? '0').padStart(n, '0');
  return {
    year: pad(m[1], 4),
    month: pad(m[2]),
    day: pad(m[3]),
    hour: pad(m[4]),
    minutes: pad(m[5]),
    seconds: pad(m[6]),
  };
}

// CLDR has short names only where a locale uses them ('EST' in en-US, 'CET' in en-GB, 'HKT' in en-HK...).
const ABBR_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-NZ', 'en-CA', 'en-ZA', 'en-HK', 'en-SG'];

/** The zone abbreviation at `at` ('EST', 'CEST', 'UTC'); offset zones return the zone string itself ('UTC+5'). */
const ABBR_CACHE = new Map<string, string>();

export function timezoneAbbr(tz: string, at: DateTime): string {
  const zone = toLuxonZone(tz);
  if (zone instanceof FixedOffsetZone) return zone.offset(0) === 0 ? 'UTC' : tz.trim();
  // The abbreviation only changes with the offset (EST/EDT): look it up once per zone and offset.
  const key = `${tz} ${zone.offset(at.toMillis())}`;
  let abbr = ABBR_CACHE.get(key);
  if (abbr === undefined) {
    if (ABBR_CACHE.size >= ZONE_CACHE_LIMIT) ABBR_CACHE.clear();
    abbr = lookUpAbbr(zone, at.toMillis());
    ABBR_CACHE.set(key, abbr);
  }
  return abbr;
}

function lookUpAbbr(zone: Zone, ts: number): string {
  for (const locale of ABBR_LOCALES) {
    const name = zone.offsetName(ts, { format: 'short', locale });
    if (name && !/^(?:GMT|UTC)[+-]/.test(name)) return name;
  }
  // No abbreviation in CLDR: tzdata (and so PHP) then uses the numeric offset, '+08', '+0530', '-03'.
  const offset = zone.offset(ts);
  const abs = Math.abs(offset);
  const hhmm =
    String(Math.floor(abs / 60)).padStart(2, '0') + (abs % 60 ? String(abs % 60).padStart(2, '0') : '');
  return (offset < 0 ? '-' : '+') + hhmm;
}

/** Current UTC wall clock as 'Y-m-d H:i:s'. */
export function utcSqlNow(now: Date): SqlDate {
  // Every write stamps its time: straight from the milliseconds, Luxon only for what they cannot show.
  const ms = now.getTime();
  return (Number.isNaN(ms) ? null : sqlOfMs(ms)) ?? formatSql(DateTime.fromJSDate(now, { zone: 'utc' }));
}

/** Converts a wall clock of `zone` to the UTC wall clock (WordPress' zero date passes through). */
export function toUtcSql(localSql: SqlDate, zone: string): SqlDate {
  if (localSql === ZERO_DATE) return localSql;
  const asUtc = canonicalSqlMs(localSql);
  const instant = asUtc === null ? null : instantAtWallClock(asUtc, toLuxonZone(zone));
  return (instant === null ? null : sqlOfMs(instant)) ?? formatSql(sqlToDateTime(localSql, zone).toUTC());
}

/** Converts a UTC wall clock to the wall clock of `zone` (WordPress' zero date passes through). */
export function fromUtcSql(utcSql: SqlDate, zone: string): SqlDate {
  if (utcSql === ZERO_DATE) return utcSql;
  const ms = canonicalSqlMs(utcSql);
  const local = ms === null ? null : sqlOfMs(ms + toLuxonZone(zone).offset(ms) * 60_000);
  return local ?? formatSql(sqlToDateTime(utcSql, 'UTC').setZone(toLuxonZone(zone)));
}

/** ISO 8601 with a numeric offset, as PHP's 'c' format: '2026-12-01T08:00:00+00:00'. */
export function isoWithOffset(localSql: SqlDate, zone: string): string {
  return sqlToDateTime(localSql, zone).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}

/** Default `start_date` of GET /events: 'yesterday 23:59' computed in UTC, rendered in the site zone. */
export function defaultArchiveStart(now: Date, siteZone: string): SqlDate {
  const utc = parseDateInput('yesterday 23:59', 'UTC', now) as DateTime;
  return formatSql(utc.setZone(toLuxonZone(siteZone)));
}

/** Default `end_date` of GET /events: now + 24 months as a UTC wall clock (PHP month overflow, not clamping). */
export function defaultArchiveEnd(now: Date): SqlDate {
  return formatSql(parseDateInput('+24 months', 'UTC', now) as DateTime);
}

/**
 * Normalise a date filter value to the site-zone wall clock it is compared with.
 * Inclusive mode: only the calendar date of the input (parsed in the site zone) counts; 'dayStart' gives its
 * 00:00:00, 'dayEnd' its 23:59:59. Strict mode: the exact instant (zone-less input read as UTC) in the site zone.
 * Null if unparseable.
 */
export function normaliseFilterDate(
  input: string | number,
  kind: 'dayStart' | 'dayEnd',
  strict: boolean,
  siteZone: string,
  now: Date,
): SqlDate | null {
  if (strict) {
    const dt = parseDateInput(input, 'UTC', now);
    return dt && formatSql(dt.setZone(toLuxonZone(siteZone)));
  }
  const dt = parseDateInput(input, siteZone, now);
  return dt && dt.toFormat('yyyy-MM-dd') + (kind === 'dayStart' ? ' 00:00:00' : ' 23:59:59');
}
