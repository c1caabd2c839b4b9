import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import type { CalendarStore } from '../../store/store';
import type { EventInput } from '../../core/events';
import type { OrganizerInput, VenueInput } from '../../core/linkedPosts';
import { shownOrganizerIds, shownVenueId } from '../../core/eventLinks';
import type { ImportProblem } from './errors';
import { eventCurrency, siteCurrency, typedCost } from '../../core/cost';
import { currencySymbolSchema } from '../../../shared/schemas/currency';

/** Column names of the original plugin's CSV importer, so a WordPress site can import what we export. */
export const EVENT_COLUMNS = [
  'Event Name',
  'Event Description',
  'Event Excerpt',
  'Event Start Date',
  'Event Start Time',
  'Event End Date',
  'Event End Time',
  'Event Time Zone',
  'All Day Event',
  'Hide From Event Listings',
  'Sticky in Month View',
  'Event Venue Name',
  'Event Organizer Name(s) or ID(s)',
  'Event Show Map Link',
  'Event Show Map',
  'Event Cost',
  'Event Currency Symbol',
  'Event Currency Position',
  'Event Category',
  'Event Tags',
  'Event Website',
  'Event Featured Image',
  'Event Allow Comments',
] as const;
export const VENUE_COLUMNS = [
  'Venue Name',
  'Venue Description',
  'Venue Country',
  'Venue Address',
  'Venue Address 2',
  'Venue City',
  'Venue State/Province',
  'Venue Zip',
  'Venue Phone',
  'Venue Website',
  'Venue Featured Image',
] as const;
export const ORGANIZER_COLUMNS = [
  'Organizer Name',
  'Organizer Description',
  'Organizer Email',
  'Organizer Website',
  'Organizer Phone',
  'Organizer Featured Image',
] as const;

export const CSV_KINDS = ['events', 'venues', 'organizers'] as const;
export type CsvKind = (typeof CSV_KINDS)[number];

const yesNo = (value: boolean) => (value ? 'TRUE' : 'FALSE');
const imageUrl = (store: CalendarStore, id: number | null) => (id ? (store.media.get(id)?.url ?? '') : '');
/** Names in a list cell: the importer splits on commas. */
const names = (values: string[]) => values.join(', ');

/** One kind of record as CSV with the original importer's columns (trashed records left out). */
export function exportCsv(store: CalendarStore, kind: CsvKind): string {
  if (kind === 'venues') {
    const rows = [...store.venues.values()]
      .filter((venue) => venue.status !== 'trash')
      .map((venue) => [
        venue.name,
        venue.description,
        venue.country,
        venue.address,
        '',
        venue.city,
        venue.stateprovince || venue.state || venue.province,
        venue.zip,
        venue.phone,
        venue.website,
        imageUrl(store, venue.imageId),
      ]);
    return stringify([[...VENUE_COLUMNS], ...rows]);
  }
  if (kind === 'organizers') {
    const rows = [...store.organizers.values()]
      .filter((organizer) => organizer.status !== 'trash')
      .map((organizer) => [
        organizer.name,
        organizer.description,
        organizer.email,
        organizer.website,
        organizer.phone,
        imageUrl(store, organizer.imageId),
      ]);
    return stringify([[...ORGANIZER_COLUMNS], ...rows]);
  }
  const termNames = (ids: number[]) =>
    names(ids.map((id) => store.terms.get(id)?.name ?? '').filter(Boolean));
  const site = siteCurrency(store.settings);
  const rows = [...store.events.values()]
    .filter((event) => event.status !== 'trash')
    .map((event) => [event, eventCurrency(event, site)] as const)
    .map(([event, currency]) => [
      event.title,
      event.description,
      event.excerpt,
      event.startLocal.slice(0, 10),
      event.startLocal.slice(11),
      event.endLocal.slice(0, 10),
      event.endLocal.slice(11),
      event.timezone,
      yesNo(event.allDay),
      yesNo(event.hideFromListings),
      yesNo(event.sticky),
      store.venues.get(shownVenueId(store, event))?.name ?? '',
      names(shownOrganizerIds(store, event).map((id) => store.organizers.get(id)!.name)),
      yesNo(event.showMapLink),
      yesNo(event.showMap),
      typedCost(event.cost),
      // The currency the cost is shown in here (the event's, else this site's): the importing site may differ.
      event.cost.length ? currency.symbol : '',
      // The importer's words: `suffix` for after the amount.
      event.cost.length ? (currency.position === 'postfix' ? 'suffix' : 'prefix') : '',
      termNames(event.categoryIds),
      termNames(event.tagIds),
      event.website ?? '',
      imageUrl(store, event.imageId),
      'FALSE',
    ]);
  return stringify([[...EVENT_COLUMNS], ...rows]);
}

const cell = z
  .string()
  .optional()
  .default('')
  .transform((value) => value.trim());
const flag = cell.refine((value) => /^(|true|false|yes|no|1|0|y|n)$/i.test(value), 'use TRUE or FALSE');
const isYes = (value: string) => /^(true|yes|1|y)$/i.test(value);
const date = cell.refine((value) => /^\d{4}-\d{2}-\d{2}$/.test(value), 'a date is written YYYY-MM-DD');
const optionalDate = cell.refine(
  (value) => value === '' || /^\d{4}-\d{2}-\d{2}$/.test(value),
  'a date is written YYYY-MM-DD',
);
const time = cell.refine(
  (value) => value === '' || /^\d{1,2}:\d{2}(:\d{2})?\s*([ap]m)?$/i.test(value),
  'a time is written HH:MM or HH:MM:SS',
);
const required = (what: string) => cell.refine((value) => value !== '', `${what} is required`);
const list = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

const eventRow = z.object({
  'Event Name': required('Event Name'),
  'Event Description': cell,
  'Event Excerpt': cell,
  'Event Start Date': date,
  'Event Start Time': time,
  'Event End Date': optionalDate,
  'Event End Time': time,
  'Event Time Zone': cell,
  'All Day Event': flag,
  'Hide From Event Listings': flag,
  'Sticky in Month View': flag,
  'Event Venue Name': cell,
  'Event Organizer Name(s) or ID(s)': cell,
  'Event Show Map Link': flag,
  'Event Show Map': flag,
  'Event Cost': cell,
  'Event Currency Symbol': cell.refine(
    (value) => currencySymbolSchema.safeParse(value).success,
    'a currency symbol is a short text without digits, such as €, $ or CHF',
  ),
  // The original importer's words: suffix or after = after the amount, anything else before.
  'Event Currency Position': cell.refine(
    (value) => /^(|prefix|before|suffix|postfix|after)$/i.test(value),
    'use prefix or suffix',
  ),
  'Event Category': cell,
  'Event Tags': cell,
  'Event Website': cell,
  'Event Featured Image': cell.refine(
    (value) => value === '' || /^https?:\/\/\S+$/i.test(value),
    'the featured image is an http(s) address',
  ),
});
const venueRow = z.object({
  'Venue Name': required('Venue Name'),
  'Venue Description': cell,
  'Venue Country': cell,
  'Venue Address': cell,
  'Venue Address 2': cell,
  'Venue City': cell,
  'Venue State/Province': cell,
  'Venue Zip': cell,
  'Venue Phone': cell,
  'Venue Website': cell,
});
const organizerRow = z.object({
  'Organizer Name': required('Organizer Name'),
  'Organizer Description': cell,
  'Organizer Email': cell,
  'Organizer Website': cell,
  'Organizer Phone': cell,
});

export type CsvInput =
  | { kind: 'events'; line: number; input: EventInput }
  | { kind: 'venues'; line: number; input: VenueInput }
  | { kind: 'organizers'; line: number; input: OrganizerInput };

const withTime = (day: string, clock: string, fallback: string) => `${day} ${clock || fallback}`;

function eventInput(row: z.infer<typeof eventRow>): EventInput {
  const allDay = isYes(row['All Day Event']);
  const endDay = row['Event End Date'] || row['Event Start Date'];
  const cost = row['Event Cost'];
  const symbol = row['Event Currency Symbol'];
  const position = row['Event Currency Position'];
  const organizers = list(row['Event Organizer Name(s) or ID(s)']).map((entry) =>
    /^\d+$/.test(entry) ? Number(entry) : { organizer: entry },
  );
  return {
    title: row['Event Name'],
    ...(row['Event Description'] ? { description: row['Event Description'] } : {}),
    ...(row['Event Excerpt'] ? { excerpt: row['Event Excerpt'] } : {}),
    start_date: withTime(row['Event Start Date'], allDay ? '' : row['Event Start Time'], '00:00:00'),
    end_date: withTime(
      endDay,
      allDay ? '' : row['Event End Time'],
      allDay ? '23:59:59' : row['Event Start Time'] || '00:00:00',
    ),
    ...(row['Event Time Zone'] ? { timezone: row['Event Time Zone'] } : {}),
    all_day: allDay,
    hide_from_listings: isYes(row['Hide From Event Listings']),
    sticky: isYes(row['Sticky in Month View']),
    ...(row['Event Show Map Link'] ? { show_map_link: isYes(row['Event Show Map Link']) } : {}),
    ...(row['Event Show Map'] ? { show_map: isYes(row['Event Show Map']) } : {}),
    ...(cost ? { cost } : {}),
    ...(symbol ? { currency_symbol: symbol } : {}),
    ...(position
      ? { currency_position: /^(suffix|postfix|after)$/i.test(position) ? 'postfix' : 'prefix' }
      : {}),
    ...(row['Event Venue Name'] ? { venue: { venue: row['Event Venue Name'] } } : {}),
    ...(organizers.length ? { organizer: organizers } : {}),
    ...(row['Event Category'] ? { categories: list(row['Event Category']) } : {}),
    ...(row['Event Tags'] ? { tags: list(row['Event Tags']) } : {}),
    ...(row['Event Website'] ? { website: row['Event Website'] } : {}),
    // Recorded by its address, not downloaded (the app may be offline).
    ...(row['Event Featured Image'] ? { image: row['Event Featured Image'] } : {}),
  };
}

/** Reads a CSV of events, venues or organizers (told apart by their columns); every row is checked first. */
export function parseCsv(text: string): { inputs: CsvInput[]; problems: ImportProblem[] } {
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(text, {
      columns: true,
      skip_empty_lines: true,
      bom: true,
      info: true,
      relax_column_count: true,
    });
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 0;
    return { inputs: [], problems: [{ line, message: `not valid CSV (${(error as Error).message})` }] };
  }
  const header = Object.keys(records[0]?.record ?? {});
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '';
  const kind: CsvKind | null =
    header.includes('Event Name') || firstLine.includes('Event Name')
      ? 'events'
      : header.includes('Venue Name') || firstLine.includes('Venue Name')
        ? 'venues'
        : header.includes('Organizer Name') || firstLine.includes('Organizer Name')
          ? 'organizers'
          : null;
  if (!kind) {
    return {
      inputs: [],
      problems: [
        { line: 1, message: 'the header names none of "Event Name", "Venue Name" or "Organizer Name"' },
      ],
    };
  }
  const inputs: CsvInput[] = [];
  const problems: ImportProblem[] = [];
  for (const { record, info } of records) {
    const line = info.lines;
    const schema = kind === 'events' ? eventRow : kind === 'venues' ? venueRow : organizerRow;
    const parsed = schema.safeParse(record);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push({ line, message: `${issue.path.join('.')}: ${issue.message}` });
      continue;
    }
    if (kind === 'events')
      inputs.push({ kind, line, input: eventInput(parsed.data as z.infer<typeof eventRow>) });
    else if (kind === 'venues') {
      const row = parsed.data as z.infer<typeof venueRow>;
      inputs.push({
        kind,
        line,
        input: {
          venue: row['Venue Name'],
          description: row['Venue Description'],
          country: row['Venue Country'],
          address: [row['Venue Address'], row['Venue Address 2']].filter(Boolean).join(', '),
          city: row['Venue City'],
          stateprovince: row['Venue State/Province'],
          zip: row['Venue Zip'],
          phone: row['Venue Phone'],
          website: row['Venue Website'] || null,
        },
      });
    } else {
      const row = parsed.data as z.infer<typeof organizerRow>;
      inputs.push({
        kind,
        line,
        input: {
          organizer: row['Organizer Name'],
          description: row['Organizer Description'],
          email: row['Organizer Email'],
          website: row['Organizer Website'] || null,
          phone: row['Organizer Phone'],
        },
      });
    }
  }
  return { inputs, problems };
}
