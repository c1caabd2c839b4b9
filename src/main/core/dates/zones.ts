import { DateTime, FixedOffsetZone, IANAZone, Zone } from 'luxon';

/*
 * Time zones as WordPress names them (IANA names and 'UTC+5' offsets) and wall clocks in them: which instant
 * a wall clock of a zone stands for (fall-back repeats and spring-forward gaps as PHP has them), and zone
 * abbreviations.
 */

// WordPress offset zones: 'UTC+5', 'UTC-3:30', 'UTC+5.5' (half hours written as decimals), also bare '+02:00'.
const OFFSET_ZONE = /^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2})|(\.\d+))?$/i;

const QUARTER_HOUR_MS = 15 * 60_000;
const DAY_MS = 86_400_000;
// About 11 years of quarter hours per zone: a calendar spanning years is converted without the memo thrashing.
const OFFSETS_PER_ZONE = 400_000;

/**
 * An IANA zone whose UTC offsets are remembered per UTC day, and per quarter hour on the days a transition
 * falls on. Luxon asks Intl for every offset, which costs microseconds each and adds up when a page of events
 * converts hundreds of dates; offsets only change at transitions, those fall on quarter hours of UTC, and
 * never two in one day: a day whose first and last quarter hours have the same offset has it throughout.
 * (Per day, a calendar spanning years is learnt in a thousand lookups instead of a hundred thousand.)
 */
class MemoizedZone extends Zone {
  private readonly offsets = new Map<number, number>();
  /** Each day's offset, or NaN on a day with a transition (its quarter hours are looked up then). */
  private readonly dayOffsets = new Map<number, number>();

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
    const day = Math.floor(ts / DAY_MS);
    let whole = this.dayOffsets.get(day);
    if (whole === undefined) {
      if (this.dayOffsets.size >= OFFSETS_PER_ZONE) this.dayOffsets.clear();
      const first = this.quarterOffset(day * DAY_MS);
      whole = first === this.quarterOffset((day + 1) * DAY_MS - QUARTER_HOUR_MS) ? first : NaN;
      this.dayOffsets.set(day, whole);
    }
    return Number.isNaN(whole) ? this.quarterOffset(ts) : whole;
  }
  private quarterOffset(ts: number): number {
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

/** A date and time of day as a clock shows it, without a zone. */
export type WallClock = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
};

/** The wall clock `dt` shows in its own zone. */
export function wallOf(dt: DateTime): WallClock {
  return { year: dt.year, month: dt.month, day: dt.day, hour: dt.hour, minute: dt.minute, second: dt.second };
}

/** `atWallClock`'s instant for a wall clock given as UTC milliseconds; null in a spring-forward gap. */
export function instantAtWallClock(asUtc: number, zone: Zone): number | null {
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
export function atWallClock(wall: WallClock, zone: Zone): DateTime {
  const asUtc = DateTime.fromObject(wall, { zone: 'utc' }).toMillis();
  const day = 86_400_000;
  const matches = [asUtc - day, asUtc, asUtc + day]
    .map((probe) => asUtc - zone.offset(probe) * 60_000)
    .filter((instant) => asUtc - instant === zone.offset(instant) * 60_000);
  if (matches.length) return DateTime.fromMillis(Math.min(...matches), { zone });
  return DateTime.fromObject(wall, { zone });
}

// CLDR has short names only where a locale uses them ('EST' in en-US, 'CET' in en-GB, 'HKT' in en-HK...).
const ABBR_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-NZ', 'en-CA', 'en-ZA', 'en-HK', 'en-SG'];

const ABBR_CACHE = new Map<string, string>();

/** The zone abbreviation at `at` ('EST', 'CEST', 'UTC'); offset zones return the zone string itself ('UTC+5'). */
export function timezoneAbbr(tz: string, at: DateTime): string {
  return timezoneAbbrAt(tz, at.toMillis());
}

/** `timezoneAbbr` at an instant in milliseconds (no DateTime to build). */
export function timezoneAbbrAt(tz: string, ms: number): string {
  const zone = toLuxonZone(tz);
  if (zone instanceof FixedOffsetZone) return zone.offset(0) === 0 ? 'UTC' : tz.trim();
  // The abbreviation only changes with the offset (EST/EDT): look it up once per zone and offset.
  const key = `${tz} ${zone.offset(ms)}`;
  let abbr = ABBR_CACHE.get(key);
  if (abbr === undefined) {
    if (ABBR_CACHE.size >= ZONE_CACHE_LIMIT) ABBR_CACHE.clear();
    abbr = lookUpAbbr(zone, ms);
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
