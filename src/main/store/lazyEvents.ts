import { EventIndex, wallClockSecondsAt } from './eventIndex';
import type { Lines } from './rawLines';
import type { StoredEvent } from './schema';

/**
 * What a start needs of every event before its record is read, written in the data file beside the events
 * (`eventKeys`, one line): the fields the listing of all events is built from, in columns, and the term
 * counts. Reading these takes a few tens of milliseconds at 100,000 events, where parsing the records takes
 * most of a second. Only a data file this process wrote and nobody changed since is started from them.
 */
export interface EventKeys {
  ids: number[];
  statuses: string[];
  /** Each event's local start and end, 19 characters each, one after the other. */
  dates: string;
  hidden: number[];
  languages: string[];
  /** Published events per term (WordPress's term counts), as [term id, count]. */
  publishedPerTerm: Array<[number, number]>;
}

const DATE_LENGTH = 19;

/** The keys of `events` (in the data file's order); undefined when there are none or a date is not canonical. */
export function eventKeysOf(
  events: readonly StoredEvent[],
  publishedPerTerm: Iterable<[number, number]>,
): EventKeys | undefined {
  if (events.length === 0) return undefined;
  const keys: EventKeys = {
    ids: new Array<number>(events.length),
    statuses: new Array<string>(events.length),
    dates: '',
    hidden: new Array<number>(events.length),
    languages: new Array<string>(events.length),
    publishedPerTerm: [...publishedPerTerm],
  };
  const dates: string[] = new Array<string>(events.length);
  for (let at = 0; at < events.length; at++) {
    const event = events[at];
    if (event!.startLocal.length !== DATE_LENGTH || event!.endLocal.length !== DATE_LENGTH) return undefined;
    keys.ids[at] = event!.id;
    keys.statuses[at] = event!.status;
    dates[at] = event!.startLocal + event!.endLocal;
    keys.hidden[at] = event!.hideFromListings ? 1 : 0;
    keys.languages[at] = event!.language;
  }
  keys.dates = dates.join('');
  return keys;
}

const isArrayOf = (value: unknown, type: string, length: number): boolean =>
  Array.isArray(value) && value.length === length && value.every((item) => typeof item === type);

/**
 * Placeholders for the `count` events that `keys` describes, in their order: objects holding only the
 * fields the listing reads (id, status, dates, hidden flag, language), typed as events but never handed out
 * (see LazyEvents). Null when `keys` is not the keys of `count` events.
 */
export function placeholdersFrom(
  keys: unknown,
  count: number,
): { events: StoredEvent[]; publishedPerTerm: Map<number, number>; seconds: Float64Array } | null {
  const { ids, statuses, dates, hidden, languages, publishedPerTerm } = (keys ?? {}) as Partial<EventKeys>;
  const valid =
    isArrayOf(ids, 'number', count) &&
    isArrayOf(statuses, 'string', count) &&
    typeof dates === 'string' &&
    dates.length === 2 * DATE_LENGTH * count &&
    isArrayOf(hidden, 'number', count) &&
    isArrayOf(languages, 'string', count) &&
    Array.isArray(publishedPerTerm) &&
    publishedPerTerm.every((entry) => isArrayOf(entry, 'number', 2));
  if (!valid) return null;
  const events = new Array<StoredEvent>(count);
  // Each start and end in seconds, read in place from `dates` (what EventIndex.reset sorts and places by).
  const seconds = new Float64Array(2 * count);
  for (let at = 0; at < count; at++) {
    const from = 2 * DATE_LENGTH * at;
    seconds[2 * at] = wallClockSecondsAt(dates, from) ?? NaN;
    seconds[2 * at + 1] = wallClockSecondsAt(dates, from + DATE_LENGTH) ?? NaN;
    events[at] = {
      id: ids![at],
      status: statuses![at],
      startLocal: dates.slice(from, from + DATE_LENGTH),
      endLocal: dates.slice(from + DATE_LENGTH, from + 2 * DATE_LENGTH),
      hideFromListings: hidden![at] === 1,
      language: languages![at],
    } as StoredEvent;
  }
  return { events, publishedPerTerm: new Map(publishedPerTerm), seconds };
}

/**
 * The events of a start from the data file's keys whose records are not read yet: each placeholder, and
 * the line of the data file its record is on. A record is read (and checked against its placeholder) when
 * first used; the store reads the rest between requests.
 */
export class LazyEvents {
  /** Event id → its line (= its placeholder's position): numbers only, no object per event to collect. */
  private readonly pending = new Map<number, number>();
  /** Where the next `nextPending` looks from: placeholders before it are all read. */
  private cursor = 0;

  constructor(
    private readonly lines: Lines,
    private readonly placeholders: readonly StoredEvent[],
  ) {
    for (let line = 0; line < placeholders.length; line++) this.pending.set(placeholders[line]!.id, line);
  }

  get size(): number {
    return this.pending.size;
  }

  /** Whether `event` is a placeholder whose record is still to be read. */
  isPlaceholder(event: StoredEvent): boolean {
    const line = this.pending.get(event.id);
    return line !== undefined && this.placeholders[line] === event;
  }

  /** The next placeholder still to be read, in the data file's order (undefined when all are). */
  nextPending(): StoredEvent | undefined {
    while (this.cursor < this.placeholders.length) {
      const placeholder = this.placeholders[this.cursor];
      if (this.isPlaceholder(placeholder!)) return placeholder;
      this.cursor++;
    }
    return undefined;
  }

  /** The record of `placeholder`, parsed from its line and checked against it (still pending: see `done`). */
  parse(placeholder: StoredEvent): StoredEvent {
    const line = this.pending.get(placeholder.id)!;
    const record = this.lines.parse(line) as StoredEvent;
    const keysAgree =
      record !== null &&
      typeof record === 'object' &&
      record.id === placeholder.id &&
      record.status === placeholder.status &&
      record.startLocal === placeholder.startLocal &&
      record.endLocal === placeholder.endLocal &&
      record.hideFromListings === placeholder.hideFromListings &&
      record.language === placeholder.language;
    if (!keysAgree)
      throw new Error(`the data file's line for event ${placeholder.id} does not match its keys`);
    return record;
  }

  /** `placeholder`'s record is in its place everywhere: it is no longer pending. */
  done(placeholder: StoredEvent): void {
    this.pending.delete(placeholder.id);
    if (this.pending.size === 0) this.close();
  }

  /** Lets go of the data file the lines are read from (all read, or the store closes first). */
  close(): void {
    this.lines.close?.();
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
