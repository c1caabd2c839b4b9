import { parse as parseStream } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import type { CalendarStore } from '../store/store';
import type { StoredEvent, StoredOrganizer, StoredVenue } from '../store/schema';
import type { EventInput } from '../core/eventRecord';
import type { OrganizerInput, VenueInput } from '../core/linkedPosts';
import { objectOfRows, shapeOfRows, type FieldRow, type InputOfRows } from '../../shared/fields/table';
import { EVENT_FLAG_FIELDS, EVENT_TEXT_FIELDS } from '../../shared/fields/event';
import { VENUE_TEXT_FIELDS } from '../../shared/fields/venue';
import { ORGANIZER_TEXT_FIELDS } from '../../shared/fields/organizer';
import { shownOrganizerIds, shownVenueId } from '../core/eventLinks';
import { isValidTimezone } from '../core/dates/zones';
import type { ImportProblem } from './errors';
import { eventCurrency, siteCurrency, typedCost, type Currency } from '../core/cost';
import { currencyCodeSchema, currencySymbolSchema } from '../../shared/schemas/currency';
import {
  COLUMNS_OF,
  keyOfHeader,
  kindOfHeaders,
  type CsvKind,
  type EventKey,
  type OrganizerKey,
  type VenueKey,
} from './csvColumns';
import { csvWallClock, type CsvDateOptions } from './csvDates';
import { neutraliseCell, restoreCell } from './csvFormulas';
import { TimeSlices } from '../core/timeSlices';

export {
  CSV_KINDS,
  EVENT_COLUMNS,
  ORGANIZER_COLUMNS,
  VENUE_COLUMNS,
  columnSlug,
  type CsvKind,
} from './csvColumns';

/*
 * CSV files with the original plugin's importer columns (see csvColumns.ts): what we export, its importer takes
 * as it is (venues and organizers first: it links an event only to ones that exist, by exact name); and what
 * a user writes by hand, we import.
 */

const yesNo = (value: boolean) => (value ? 'TRUE' : 'FALSE');
const imageUrl = (store: CalendarStore, id: number | null) => (id ? (store.media.get(id)?.url ?? '') : '');
/** Names in a list cell: the importer splits on commas. */
const names = (values: string[]) => values.join(', ');

type Cells<K extends string> = Record<K, string>;

/** The cells of a table's rows that have a CSV column, by column key, from the stored record. */
function cellsOfRows<const Rows extends readonly FieldRow<string>[]>(
  rows: Rows,
  record: { [R in Rows[number] as R['stored']]: string },
): { [R in Rows[number] as R['csv'] & string]: string } {
  const stored = record as Record<string, string>;
  const cells: Record<string, string> = {};
  for (const row of rows) if (row.csv) cells[row.csv] = stored[row.stored]!;
  return cells as { [R in Rows[number] as R['csv'] & string]: string };
}

/** A write's fields from the cells of a table's columns, by wire key: an empty cell of a URL clears it (null). */
function inputOfCells<const Rows extends readonly FieldRow<string>[]>(
  rows: Rows,
  cells: Record<string, string>,
): InputOfRows<Rows> {
  const input: Record<string, string | null> = {};
  for (const row of rows) {
    if (!row.csv) continue;
    const cell = cells[row.csv] ?? '';
    input[row.wire] = row.type === 'url' ? cell || null : cell;
  }
  return input as InputOfRows<Rows>;
}

function venueCells(store: CalendarStore, venue: StoredVenue): Cells<VenueKey> {
  return {
    venue_name: venue.name,
    venue_description: venue.description,
    ...cellsOfRows(VENUE_TEXT_FIELDS, venue),
    // Not columns of the table's rows: the importer's second address line, and one cell for state or province.
    venue_address2: '',
    venue_state: venue.stateprovince || venue.state || venue.province,
    featured_image: imageUrl(store, venue.imageId),
  };
}

function organizerCells(store: CalendarStore, organizer: StoredOrganizer): Cells<OrganizerKey> {
  return {
    organizer_name: organizer.name,
    organizer_description: organizer.description,
    ...cellsOfRows(ORGANIZER_TEXT_FIELDS, organizer),
    featured_image: imageUrl(store, organizer.imageId),
  };
}

function eventCells(store: CalendarStore, event: StoredEvent, site: Currency): Cells<EventKey> {
  const termNames = (ids: number[]) =>
    names(ids.map((id) => store.terms.get(id)?.name ?? '').filter(Boolean));
  const currency = eventCurrency(event, site);
  const priced = event.cost.length > 0;
  return {
    // The wall clock in the event's own zone, with that zone beside it: the instant survives the trip.
    event_start_date: event.startLocal.slice(0, 10),
    event_start_time: event.startLocal.slice(11),
    event_end_date: event.endLocal.slice(0, 10),
    event_end_time: event.endLocal.slice(11),
    event_timezone: event.timezone,
    event_all_day: yesNo(event.allDay),
    ...objectOfRows(EVENT_FLAG_FIELDS, 'csv', (row) => yesNo(event[row.stored])),
    // Spread after the record's own keys, not first (see sync/localRecords.ts); the columns' order is the list's.
    ...objectOfRows(EVENT_TEXT_FIELDS, 'csv', (row) => event[row.stored]),
    event_venue_name: store.venues.get(shownVenueId(store, event))?.name ?? '',
    event_organizer_name: names(shownOrganizerIds(store, event).map((id) => store.organizers.get(id)!.name)),
    event_cost: typedCost(event.cost),
    // The currency the cost is shown in here (the event's, else this site's): the importing site may differ.
    event_currency_code: priced ? currency.code : '',
    event_currency_symbol: priced ? currency.symbol : '',
    // The importer's words: `suffix` for after the amount.
    event_currency_position: priced ? (currency.position === 'postfix' ? 'suffix' : 'prefix') : '',
    event_category: termNames(event.categoryIds),
    event_tags: termNames(event.tagIds),
    event_website: event.website ?? '',
    featured_image: imageUrl(store, event.imageId),
    // Calendar Desk keeps no comments or pingbacks: closed, as the original's events are by default.
    event_comment_status: 'FALSE',
    event_ping_status: 'FALSE',
  };
}

/** One stored record as its row of cells, by importer key (what the export writes for it). */
export function cellsOfRecord(
  store: CalendarStore,
  record: StoredEvent | StoredVenue | StoredOrganizer,
): Record<string, string> {
  if (record.kind === 'venue') return venueCells(store, record);
  if (record.kind === 'organizer') return organizerCells(store, record);
  return eventCells(store, record, siteCurrency(store.settings));
}

/** The records of one kind, trash left out, as rows of cells by importer key. */
function cellsOf(
  store: CalendarStore,
  kind: CsvKind,
  events: Iterable<StoredEvent> = store.events.values(),
): Record<string, string>[] {
  const live = <T extends { status: string }>(records: Iterable<T>) =>
    [...records].filter((record) => record.status !== 'trash');
  if (kind === 'venues') return live(store.venues.values()).map((venue) => venueCells(store, venue));
  if (kind === 'organizers')
    return live(store.organizers.values()).map((organizer) => organizerCells(store, organizer));
  const site = siteCurrency(store.settings);
  return live(events).map((event) => eventCells(store, event, site));
}

/**
 * One kind of record as CSV with the original importer's columns (trashed records left out). `events`
 * (default: all) picks the events written; venues and organizers are always all of them. A cell a spreadsheet
 * would run as a formula is written behind a quote (csvFormulas.ts); `parseCsv` takes the quote away again.
 */
export function exportCsv(store: CalendarStore, kind: CsvKind, events?: Iterable<StoredEvent>): string {
  const columns = COLUMNS_OF[kind];
  const rows = cellsOf(store, kind, events).map((cells) => columns.map((c) => neutraliseCell(cells[c.key]!)));
  return stringify([columns.map((c) => c.header), ...rows]);
}

const cell = z
  .string()
  .optional()
  .default('')
  .transform((value) => value.trim());
const flag = cell.refine((value) => /^(|true|false|yes|no|1|0|y|n)$/i.test(value), 'use TRUE or FALSE');
const isYes = (value: string) => /^(true|yes|1|y)$/i.test(value);
const required = (what: string) => cell.refine((value) => value !== '', `${what} is required`);
const httpAddress = (what: string) =>
  cell.refine((value) => value === '' || /^https?:\/\/\S+$/i.test(value), `${what} is an http(s) address`);
const list = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** The event columns, by importer key; dates are read afterwards (they need the row's zone). */
const eventRow = z.object({
  event_name: required('Event Name'),
  event_description: cell,
  event_excerpt: cell,
  event_start_date: required('Event Start Date'),
  event_start_time: cell,
  event_end_date: cell,
  event_end_time: cell,
  event_timezone: cell,
  event_all_day: flag,
  ...shapeOfRows(EVENT_FLAG_FIELDS, 'csv', flag),
  event_venue_name: cell,
  event_organizer_name: cell,
  event_cost: cell,
  event_currency_code: cell.refine(
    (value) => value === '' || currencyCodeSchema.safeParse(value).success,
    'a currency code has three letters, such as EUR or USD',
  ),
  event_currency_symbol: cell.refine(
    (value) => currencySymbolSchema.safeParse(value).success,
    'a currency symbol is a short text without digits, such as €, $ or CHF',
  ),
  // The original importer's words: suffix or after = after the amount, anything else before.
  event_currency_position: cell.refine(
    (value) => /^(|prefix|before|suffix|postfix|after)$/i.test(value),
    'use prefix or suffix',
  ),
  event_category: cell,
  event_tags: cell,
  event_website: cell,
  featured_image: httpAddress('the featured image'),
  event_comment_status: flag,
  event_ping_status: flag,
});
const venueRow = z.object({
  venue_name: required('Venue Name'),
  venue_description: cell,
  venue_country: cell,
  venue_address: cell,
  venue_address2: cell,
  venue_city: cell,
  venue_state: cell,
  venue_zip: cell,
  venue_phone: cell,
  venue_url: cell,
  featured_image: httpAddress('the featured image'),
});
const organizerRow = z.object({
  organizer_name: required('Organizer Name'),
  organizer_description: cell,
  organizer_email: cell,
  organizer_website: cell,
  organizer_phone: cell,
  featured_image: httpAddress('the featured image'),
});
const ROW_SCHEMAS = { events: eventRow, venues: venueRow, organizers: organizerRow } as const;

export type CsvInput =
  | { kind: 'events'; line: number; input: EventInput }
  | { kind: 'venues'; line: number; input: VenueInput }
  | { kind: 'organizers'; line: number; input: OrganizerInput };

/** How a CSV file is read: its dates (day-first or not, relative to when), in the calendar's zone by default. */
export interface CsvReadOptions {
  dayFirst?: boolean;
  now?: Date;
  /** The zone of rows without an `Event Timezone` (the calendar's). */
  zone?: string;
}

type EventRow = z.infer<typeof eventRow>;
/** The dates of a file as they are read, with the zone of rows that name none. */
export type CsvDates = CsvDateOptions & { zone: string };
/** A problem of one cell: the column by its importer key (reported with the file's own header). */
type CellProblem = { key: EventKey; message: string };

/** Start and end of a row as wall clocks in the row's zone, or the cells that are not dates. */
function rowSchedule(
  row: EventRow,
  allDay: boolean,
  dates: CsvDates,
): { start: string; end: string } | CellProblem[] {
  const zone = isValidTimezone(row.event_timezone) ? row.event_timezone : dates.zone;
  // A cell is a date (and time) the way the API reads one; a problem names the cell the text came from.
  const read = (dayKey: EventKey, timeKey: EventKey): string | CellProblem => {
    const day = row[dayKey];
    const clock = allDay ? '' : row[timeKey];
    if (csvWallClock(day, '', zone, dates) === null)
      return {
        key: dayKey,
        message: `"${day}" is not a date (write it as 2026-06-05, 06/05/2026 or "next friday")`,
      };
    const wall = csvWallClock(day, clock, zone, dates);
    return (
      wall ?? { key: timeKey, message: `"${clock}" is not a time of day (write it as 19:30 or 7:30 pm)` }
    );
  };
  const start = read('event_start_date', 'event_start_time');
  // The end's empty cells are the start's: the same day, the start time.
  const end = read(
    row.event_end_date ? 'event_end_date' : 'event_start_date',
    row.event_end_time ? 'event_end_time' : 'event_start_time',
  );
  if (typeof start !== 'string' || typeof end !== 'string') {
    const problems = [start, end].filter((value): value is CellProblem => typeof value !== 'string');
    return problems.filter((problem, index) => index === 0 || problem.key !== problems[0]!.key);
  }
  return {
    start: allDay ? `${start.slice(0, 10)} 00:00:00` : start,
    end: allDay ? `${end.slice(0, 10)} 23:59:59` : end,
  };
}

function eventInput(row: EventRow, schedule: { start: string; end: string }): EventInput {
  const allDay = isYes(row.event_all_day);
  const position = row.event_currency_position;
  const organizers = list(row.event_organizer_name).map((entry) =>
    /^\d+$/.test(entry) ? Number(entry) : { organizer: entry },
  );
  const optional = <T>(present: unknown, value: T) => (present ? value : undefined);
  const input: EventInput = {
    start_date: schedule.start,
    end_date: schedule.end,
    timezone: optional(row.event_timezone, row.event_timezone),
    all_day: allDay,
    // An empty cell leaves the flag as it is (a new event: its default), so a re-import of a shorter file keeps it.
    ...objectOfRows(EVENT_FLAG_FIELDS, 'wire', (field) => optional(row[field.csv], isYes(row[field.csv]))),
    // An empty cell leaves the text as it is (the name is required: see the row's schema).
    ...objectOfRows(EVENT_TEXT_FIELDS, 'wire', (field) => optional(row[field.csv], row[field.csv])),
    cost: optional(row.event_cost, row.event_cost),
    currency_code: optional(row.event_currency_code, row.event_currency_code.toUpperCase()),
    currency_symbol: optional(row.event_currency_symbol, row.event_currency_symbol),
    currency_position: optional(position, /^(suffix|postfix|after)$/i.test(position) ? 'postfix' : 'prefix'),
    venue: optional(row.event_venue_name, { venue: row.event_venue_name }),
    organizer: optional(organizers.length, organizers),
    categories: optional(row.event_category, list(row.event_category)),
    tags: optional(row.event_tags, list(row.event_tags)),
    website: optional(row.event_website, row.event_website),
    // Recorded by its address, not downloaded (the app may be offline).
    image: optional(row.featured_image, row.featured_image),
  };
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
}

function venueInput(row: z.infer<typeof venueRow>): VenueInput {
  return {
    venue: row.venue_name,
    description: row.venue_description,
    ...inputOfCells(VENUE_TEXT_FIELDS, row),
    address: [row.venue_address, row.venue_address2].filter(Boolean).join(', '),
    stateprovince: row.venue_state,
    ...(row.featured_image ? { image: row.featured_image } : {}),
  };
}

function organizerInput(row: z.infer<typeof organizerRow>): OrganizerInput {
  return {
    organizer: row.organizer_name,
    description: row.organizer_description,
    ...inputOfCells(ORGANIZER_TEXT_FIELDS, row),
    ...(row.featured_image ? { image: row.featured_image } : {}),
  };
}

/** One row, by importer key, as the input of a write; or its problems (keys of the cells at fault). */
export function rowInput(
  kind: CsvKind,
  record: Record<string, string>,
  dates: CsvDates,
): { input: CsvInput['input'] } | { problems: { key: string; message: string }[] } {
  const parsed = ROW_SCHEMAS[kind].safeParse(record);
  if (!parsed.success)
    return {
      problems: parsed.error.issues.map((issue) => ({ key: String(issue.path[0]), message: issue.message })),
    };
  if (kind === 'venues') return { input: venueInput(parsed.data as z.infer<typeof venueRow>) };
  if (kind === 'organizers') return { input: organizerInput(parsed.data as z.infer<typeof organizerRow>) };
  const row = parsed.data as EventRow;
  const schedule = rowSchedule(row, isYes(row.event_all_day), dates);
  if (Array.isArray(schedule)) return { problems: schedule };
  return { input: eventInput(row, schedule) };
}

/** The reading of dates the options ask for. */
export function csvDates(options: CsvReadOptions): CsvDates {
  return { dayFirst: options.dayFirst, now: options.now ?? new Date(), zone: options.zone ?? 'UTC' };
}

type Tokenized = { record: string[]; info: { lines: number } };
const CSV_OPTIONS = { skip_empty_lines: true, bom: true, info: true, relax_column_count: true } as const;
/** Characters of a file handed to the CSV parser at a time (a few ms of work). */
const CSV_CHUNK = 16 * 1024;

/** The problem of a file that is not CSV at all. */
const notCsv = (error: unknown): { inputs: CsvInput[]; problems: ImportProblem[] } => ({
  inputs: [],
  problems: [
    {
      line: (error as { lines?: number }).lines ?? 0,
      message: `not valid CSV (${(error as Error).message})`,
    },
  ],
});

/**
 * Reads a CSV of events, venues or organizers (told apart by their columns); every row is checked first. Dates
 * are read as the API reads them (`options.dayFirst` for `d/m/Y`); a row with a problem gives no input.
 */
export function parseCsv(
  text: string,
  options: CsvReadOptions = {},
): { inputs: CsvInput[]; problems: ImportProblem[] } {
  let records: Tokenized[];
  try {
    records = parse(text, CSV_OPTIONS) as unknown as Tokenized[];
  } catch (error) {
    return notCsv(error);
  }
  const rows = rowsOf(records, options);
  for (;;) {
    const step = rows.next();
    if (step.done) return step.value;
  }
}

/**
 * {@link parseCsv}, a slice at a time (issue 26 item 3): the text is given to csv-parse's stream a chunk at a
 * time and the rows are checked one after another, with the event loop let go every SLICE_MS, so that a large
 * file does not hold the server for seconds.
 */
export async function readCsv(
  text: string,
  options: CsvReadOptions = {},
): Promise<{ inputs: CsvInput[]; problems: ImportProblem[] }> {
  const slices = new TimeSlices();
  const records: Tokenized[] = [];
  const parser = parseStream(CSV_OPTIONS);
  parser.on('data', (record: Tokenized) => records.push(record));
  const ended = new Promise<void>((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', reject);
  });
  ended.catch(() => undefined); // awaited below; a failure part-way stops the writing first
  for (let at = 0; at < text.length && !parser.destroyed; at += CSV_CHUNK) {
    parser.write(text.slice(at, at + CSV_CHUNK));
    await slices.pause();
  }
  parser.end();
  try {
    await ended;
  } catch (error) {
    return notCsv(error);
  }
  const rows = rowsOf(records, options);
  for (;;) {
    const step = rows.next();
    if (step.done) return step.value;
    await slices.pause();
  }
}

/** The rows of a tokenized file as inputs, one row per step (the caller may pause between two). */
function* rowsOf(
  records: Tokenized[],
  options: CsvReadOptions,
): Generator<void, { inputs: CsvInput[]; problems: ImportProblem[] }> {
  const headers = records[0]?.record ?? [];
  const kind = kindOfHeaders(headers);
  if (!kind) {
    return {
      inputs: [],
      problems: [
        { line: 1, message: 'the header names none of "Event Name", "Venue Name" or "Organizer Name"' },
      ],
    };
  }
  // Each column by the importer key its header names (unknown columns are left out, as the importer does).
  const keys = headers.map((header) => keyOfHeader(kind, header));
  // A problem names the column as the file's header does (else as we write it: the column is missing).
  const headerOf = (key: string) =>
    headers[keys.indexOf(key)] ?? COLUMNS_OF[kind].find((c) => c.key === key)?.header ?? key;
  const dates = csvDates(options);
  const inputs: CsvInput[] = [];
  const problems: ImportProblem[] = [];
  for (let index = 1; index < records.length; index++) {
    const { record: cells, info } = records[index]!;
    const line = info.lines;
    const record: Record<string, string> = {};
    keys.forEach((key, column) => {
      // The quote our export puts before a formula-like cell is not part of the text (csvFormulas.ts).
      if (key && !(key in record)) record[key] = restoreCell(cells[column] ?? '');
    });
    const result = rowInput(kind, record, dates);
    if ('problems' in result) {
      for (const problem of result.problems)
        problems.push({ line, message: `${headerOf(problem.key)}: ${problem.message}` });
    } else inputs.push({ kind, line, input: result.input } as CsvInput);
    yield;
  }
  return { inputs, problems };
}
