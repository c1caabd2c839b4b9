import { EventIndex, wallClockSecondsAt, wallClockText } from './eventIndex';
import { littleEndianUint32s } from './littleEndian';
import { LazyRecords } from './lazyRecords';
import type { Lines } from './rawLines';
import type { StoredEvent } from './schema';

/**
 * What a start needs of every event before its record is read, written in the data file beside the events
 * (`eventKeys`, one line): the fields the listing of all events is built from, in columns, and the term
 * counts. Reading these takes a few tens of milliseconds at 100,000 events, where parsing the records takes
 * most of a second. Only a data file this process wrote and nobody changed since is started from them.
 *
 * Statuses, hidden flags and languages are one character per event (`codes`): 100,000 strings in arrays took
 * ~20 ms more to parse and as much again to collect. Files written before keep arrays: they are read too.
 */
export interface EventKeys {
  /** The ids as base64 of 32-bit little-endian numbers (a JSON array of 100,000 numbers took ~5 ms to parse),
   * or an array when one does not fit in 32 bits (and in files written before). */
  ids: string | number[];
  /** Each event's status as one character: its position in `statusNames`, from CODE_BASE. */
  statuses: string;
  statusNames: string[];
  /** Each event's local start and end, 19 characters each, one after the other. */
  dates: string;
  /** "1" for an event hidden from listings, "0" otherwise. */
  hidden: string;
  /** Each event's language as one character: its position in `languageNames`, from CODE_BASE. */
  languages: string;
  languageNames: string[];
  /** Published events per term (WordPress's term counts), as [term id, count]. */
  publishedPerTerm: Array<[number, number]>;
}

const DATE_LENGTH = 19;
/** The character standing for the first name of a column (`0`, then `1`…: printable, as JSON keeps it). */
const CODE_BASE = 0x30;

/** How many names a column's characters can stand for: those from CODE_BASE up to the surrogates. */
const MAX_NAMES = 0xd800 - CODE_BASE;

/** `values` as one character each, and the names the characters stand for. */
function coded(values: readonly string[]): { codes: string; names: string[] } {
  const positions = new Map<string, number>();
  const codes = new Array<string>(values.length);
  for (let at = 0; at < values.length; at++) {
    let position = positions.get(values[at]!);
    if (position === undefined) positions.set(values[at]!, (position = positions.size));
    codes[at] = String.fromCharCode(CODE_BASE + position);
  }
  return { codes: codes.join(''), names: [...positions.keys()] };
}

/** The keys of `events` (in the data file's order); undefined when there are none or a date is not canonical. */
export function eventKeysOf(
  events: readonly StoredEvent[],
  publishedPerTerm: Iterable<[number, number]>,
): EventKeys | undefined {
  if (events.length === 0) return undefined;
  const ids = new Array<number>(events.length);
  const statuses = new Array<string>(events.length);
  const dates = new Array<string>(events.length);
  const hidden = new Array<string>(events.length);
  const languages = new Array<string>(events.length);
  for (let at = 0; at < events.length; at++) {
    const event = events[at]!;
    if (event.startLocal.length !== DATE_LENGTH || event.endLocal.length !== DATE_LENGTH) return undefined;
    ids[at] = event.id;
    statuses[at] = event.status;
    dates[at] = event.startLocal + event.endLocal;
    hidden[at] = event.hideFromListings ? '1' : '0';
    languages[at] = event.language;
  }
  const fitIn32Bits = ids.every((id) => Number.isInteger(id) && id >= 0 && id <= 0xffffffff);
  const status = coded(statuses);
  const language = coded(languages);
  // More names than characters before the surrogates: no keys (the start reads every record, as without them).
  if (status.names.length > MAX_NAMES || language.names.length > MAX_NAMES) return undefined;
  return {
    ids: fitIn32Bits ? idsText(ids) : ids,
    statuses: status.codes,
    statusNames: status.names,
    dates: dates.join(''),
    hidden: hidden.join(''),
    languages: language.codes,
    languageNames: language.names,
    publishedPerTerm: [...publishedPerTerm],
  };
}

/** `ids` as base64 of 32-bit little-endian numbers. */
function idsText(ids: readonly number[]): string {
  const bytes = Buffer.allocUnsafe(4 * ids.length);
  for (let at = 0; at < ids.length; at++) bytes.writeUInt32LE(ids[at]!, 4 * at);
  return bytes.toString('base64');
}

/** Dates read as seconds between two turns of the event loop while the layout's columns are made. */
const DATES_PER_SLICE = 20_000;

/**
 * The keys as the layout file keeps them beside the data file (lineLayout.ts): columns of numbers a start
 * takes as they are, where the data file's `eventKeys` line (4.6 MB at 100,000 events) is text to decode and
 * parse, and its dates text to read again as seconds — ~100 ms of a start on a slow machine.
 */
export class EventKeyColumns {
  constructor(
    readonly ids: Uint32Array,
    /** Each event's start and end in wall-clock seconds, one after the other (never NaN: see `of`). */
    readonly seconds: Float64Array,
    /** Each event's status as its position in `statusNames`. */
    readonly statuses: Uint8Array,
    readonly statusNames: readonly string[],
    /** 1 for an event hidden from listings. */
    readonly hidden: Uint8Array,
    readonly languages: Uint8Array,
    readonly languageNames: readonly string[],
    readonly publishedPerTerm: ReadonlyArray<readonly [number, number]>,
  ) {}

  get count(): number {
    return this.ids.length;
  }

  /**
   * The columns of `keys`; null when they cannot hold them (an id past 32 bits, more than 256 names, a date
   * that is not a real one: its text could not be given back from seconds). Made while the data file is
   * written, beside requests: the dates are read a slice at a time (200,000 dates in one piece held the event
   * loop ~50 ms on a slow machine).
   */
  static async of(keys: EventKeys): Promise<EventKeyColumns | null> {
    const count = keys.statuses.length;
    const ids = idColumnOf(keys.ids, count);
    const status = columnOf(keys.statuses, keys.statusNames, count);
    const language = columnOf(keys.languages, keys.languageNames, count);
    const hidden = hiddenColumnOf(keys.hidden, count);
    if (!(ids instanceof Uint32Array) || !status || !language || !hidden) return null;
    if (status.names.length > 256 || language.names.length > 256) return null;
    if (keys.dates.length !== 2 * DATE_LENGTH * count) return null;
    const seconds = new Float64Array(2 * count);
    for (let at = 0; at < 2 * count; at++) {
      if (at > 0 && at % DATES_PER_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      const value = wallClockSecondsAt(keys.dates, at * DATE_LENGTH);
      if (value === null) return null;
      seconds[at] = value;
    }
    return new EventKeyColumns(
      ids,
      seconds,
      Uint8Array.from(status.positions),
      status.names,
      hidden,
      Uint8Array.from(language.positions),
      language.names,
      keys.publishedPerTerm,
    );
  }
}

/** The `count` ids of the keys: base64 of 32-bit numbers, or an array; null when neither. */
function idColumnOf(ids: unknown, count: number): ArrayLike<number> | null {
  if (isArrayOf(ids, 'number', count)) return ids as number[];
  if (typeof ids !== 'string') return null;
  const bytes = Buffer.from(ids, 'base64');
  return bytes.length === 4 * count ? littleEndianUint32s(bytes) : null;
}

const isArrayOf = (value: unknown, type: string, length: number): boolean =>
  Array.isArray(value) && value.length === length && value.every((item) => typeof item === type);

/**
 * A column of `count` strings, as the names and each event's position among them (one character per event
 * standing for one of `names`), or (files written before) the strings themselves. Null when it is neither,
 * or a code has no name. Positions in a typed array, read in the placeholders' loop: at a start that code is
 * still cold, and a closure called per event cost tens of milliseconds on a slow machine.
 */
function columnOf(
  values: unknown,
  names: unknown,
  count: number,
): { names: readonly string[]; positions: Uint32Array } | null {
  if (isArrayOf(values, 'string', count)) {
    const known = new Map<string, number>();
    const positions = new Uint32Array(count);
    for (let at = 0; at < count; at++) {
      const value = (values as string[])[at]!;
      let position = known.get(value);
      if (position === undefined) known.set(value, (position = known.size));
      positions[at] = position;
    }
    return { names: [...known.keys()], positions };
  }
  if (typeof values !== 'string' || values.length !== count) return null;
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) return null;
  const positions = new Uint32Array(count);
  for (let at = 0; at < count; at++) {
    const position = values.charCodeAt(at) - CODE_BASE;
    if (!(position >= 0 && position < names.length)) return null;
    positions[at] = position;
  }
  return { names, positions };
}

/** The hidden flags of `count` events, 1 for hidden: a string of "0"/"1", or (before) an array of 0/1. */
function hiddenColumnOf(hidden: unknown, count: number): Uint8Array | null {
  const flags = new Uint8Array(count);
  if (isArrayOf(hidden, 'number', count)) {
    for (let at = 0; at < count; at++) flags[at] = (hidden as number[])[at] === 1 ? 1 : 0;
    return flags;
  }
  if (typeof hidden !== 'string' || hidden.length !== count) return null;
  for (let at = 0; at < count; at++) {
    const code = hidden.charCodeAt(at);
    if (code !== 0x30 && code !== 0x31) return null;
    flags[at] = code - 0x30;
  }
  return flags;
}

/** Where placeholders' dates are read from when asked: the keys' text, or their seconds. */
interface KeyDates {
  dateAt(slot: number): string;
}

/** The keys' `dates`: each event's start and end, 19 characters each. */
class TextDates implements KeyDates {
  constructor(private readonly text: string) {}
  dateAt(slot: number): string {
    return this.text.slice(slot * DATE_LENGTH, (slot + 1) * DATE_LENGTH);
  }
}

/** The columns' seconds, written back as text (canonical dates only are kept as seconds). */
class SecondsDates implements KeyDates {
  constructor(private readonly seconds: Float64Array) {}
  dateAt(slot: number): string {
    return wallClockText(this.seconds[slot]!);
  }
}

/**
 * A placeholder: the fields the listing reads, and the line of the data file its record is on. Its dates are
 * read from the keys when asked (rarely: the listing places it by the seconds `placeholdersFrom` gives), not
 * cut out for each of 100,000 events at the start.
 */
class Placeholder {
  constructor(
    readonly id: number,
    readonly status: string,
    readonly hideFromListings: boolean,
    readonly language: string,
    readonly placeholderLine: number,
    private readonly dates: KeyDates,
  ) {}

  get startLocal(): string {
    return this.dates.dateAt(2 * this.placeholderLine);
  }

  get endLocal(): string {
    return this.dates.dateAt(2 * this.placeholderLine + 1);
  }
}

/** What the placeholders are made of, from either form of the keys. */
interface KeyColumns {
  ids: ArrayLike<number>;
  status: { names: readonly string[]; positions: ArrayLike<number> };
  language: { names: readonly string[]; positions: ArrayLike<number> };
  hidden: ArrayLike<number>;
  seconds: Float64Array;
  dates: KeyDates;
  publishedPerTerm: ReadonlyArray<readonly [number, number]>;
}

/** The data file's keys (JSON) as columns; null when they are not the keys of `count` events. */
function columnsOfText(keys: unknown, count: number): KeyColumns | null {
  const { ids, statuses, statusNames, dates, hidden, languages, languageNames, publishedPerTerm } = (keys ??
    {}) as Partial<Record<keyof EventKeys, unknown>>;
  if (
    typeof dates !== 'string' ||
    dates.length !== 2 * DATE_LENGTH * count ||
    !Array.isArray(publishedPerTerm) ||
    !publishedPerTerm.every((entry) => isArrayOf(entry, 'number', 2))
  )
    return null;
  const status = columnOf(statuses, statusNames, count);
  const language = columnOf(languages, languageNames, count);
  const hiddenFlags = hiddenColumnOf(hidden, count);
  const idColumn = idColumnOf(ids, count);
  if (!idColumn || !status || !language || !hiddenFlags) return null;
  // Each start and end in seconds, read in place from `dates` (what EventIndex.reset sorts and places by).
  const seconds = new Float64Array(2 * count);
  for (let slot = 0; slot < 2 * count; slot++)
    seconds[slot] = wallClockSecondsAt(dates, slot * DATE_LENGTH) ?? NaN;
  return {
    ids: idColumn,
    status,
    language,
    hidden: hiddenFlags,
    seconds,
    dates: new TextDates(dates),
    publishedPerTerm: publishedPerTerm as Array<[number, number]>,
  };
}

/** The layout file's columns, when they are those of `count` events and every code has its name. */
function columnsOfBinary(keys: EventKeyColumns, count: number): KeyColumns | null {
  const { ids, seconds, statuses, statusNames, hidden, languages, languageNames } = keys;
  if (ids.length !== count || seconds.length !== 2 * count || statuses.length !== count) return null;
  if (hidden.length !== count || languages.length !== count) return null;
  for (let at = 0; at < count; at++) {
    if (statuses[at]! >= statusNames.length || languages[at]! >= languageNames.length || hidden[at]! > 1)
      return null;
  }
  return {
    ids,
    status: { names: statusNames, positions: statuses },
    language: { names: languageNames, positions: languages },
    hidden,
    seconds,
    dates: new SecondsDates(seconds),
    publishedPerTerm: keys.publishedPerTerm,
  };
}

/**
 * Placeholders for the `count` events that `keys` describes, in their order: objects holding only the
 * fields the listing reads (id, status, dates, hidden flag, language) and their line, typed as events but
 * never handed out (see LazyEvents). `keys` is the data file's `eventKeys`, or the layout file's columns
 * (EventKeyColumns). Null when `keys` is not the keys of `count` events.
 */
export function placeholdersFrom(
  keys: unknown,
  count: number,
): { events: StoredEvent[]; publishedPerTerm: Map<number, number>; seconds: Float64Array } | null {
  const columns = keys instanceof EventKeyColumns ? columnsOfBinary(keys, count) : columnsOfText(keys, count);
  if (!columns) return null;
  const { ids, status, language, hidden, seconds, dates } = columns;
  const events = new Array<StoredEvent>(count);
  for (let at = 0; at < count; at++) {
    const placeholder = new Placeholder(
      ids[at]!,
      status.names[status.positions[at]!]!,
      hidden[at] === 1,
      language.names[language.positions[at]!]!,
      at,
      dates,
    );
    events[at] = placeholder as unknown as StoredEvent;
  }
  const publishedPerTerm = new Map(columns.publishedPerTerm as Array<[number, number]>);
  return { events, publishedPerTerm, seconds };
}

/**
 * The events of a start from the data file's keys whose records are not read yet: each placeholder, and
 * the line of the data file its record is on. A record is read (and checked against its placeholder) when
 * first used; the store reads the rest between requests.
 */
export class LazyEvents extends LazyRecords<StoredEvent> {
  constructor(lines: Lines, placeholders: readonly StoredEvent[]) {
    super(lines, placeholders, 'event');
  }

  /** The keys a placeholder holds are the record's (the listing placed it by them). */
  protected override agrees(record: StoredEvent, placeholder: StoredEvent): boolean {
    return (
      record.id === placeholder.id &&
      record.status === placeholder.status &&
      record.startLocal === placeholder.startLocal &&
      record.endLocal === placeholder.endLocal &&
      record.hideFromListings === placeholder.hideFromListings &&
      record.language === placeholder.language
    );
  }
}

/**
 * `data` as the app writes it in a data file, with its events' keys: for tools that write a data file
 * themselves (the benchmark's seed), so that a start on it is the start on a file of the app's.
 */
export function withEventKeys<T extends { events: StoredEvent[] }>(data: T): T {
  const index = new EventIndex();
  index.reset(data.events);
  const eventKeys = eventKeysOf(data.events, index.termCounts());
  return eventKeys ? { ...data, eventKeys } : data;
}
