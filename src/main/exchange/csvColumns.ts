/*
 * The columns of the original plugin's CSV importer (The Events Calendar, `Tribe__Events__Importer__Column_Mapper`).
 * Its import screen pre-selects a column only when the header's slug (aggregator-fields.js: lowercased, spaces
 * turned into `_`, other characters removed) equals the importer's internal key; so each header we write slugs to
 * its key, and every column the importer has is written. Reading, a column is known by its key, by the label the
 * importer's screen shows, or by the header an earlier Calendar Desk wrote.
 */

export const CSV_KINDS = ['events', 'venues', 'organizers'] as const;
export type CsvKind = (typeof CSV_KINDS)[number];

interface Column<K extends string> {
  /** The importer's internal key. */
  key: K;
  /** What we write: readable, and its slug is `key`. */
  header: string;
  /** Other headers read as this column: the importer's label, and what earlier versions wrote. */
  also: string[];
}

const column = <K extends string>(key: K, header: string, ...also: string[]): Column<K> => ({
  key,
  header,
  also,
});

export const EVENT_COLUMN_LIST = [
  column('event_name', 'Event Name'),
  column('event_description', 'Event Description'),
  column('event_excerpt', 'Event Excerpt'),
  column('event_start_date', 'Event Start Date'),
  column('event_start_time', 'Event Start Time'),
  column('event_end_date', 'Event End Date'),
  column('event_end_time', 'Event End Time'),
  column('event_timezone', 'Event Timezone', 'Event Time Zone'),
  column('event_all_day', 'Event All Day', 'All Day Event'),
  column('event_hide', 'Event Hide', 'Hide Event From Event Listings', 'Hide From Event Listings'),
  column('event_sticky', 'Event Sticky', 'Event Sticky in Month View', 'Sticky in Month View'),
  column('feature_event', 'Feature Event'),
  column('event_venue_name', 'Event Venue Name'),
  column('event_organizer_name', 'Event Organizer Name', 'Event Organizer Name(s) or ID(s)'),
  column('event_show_map_link', 'Event Show Map Link'),
  column('event_show_map', 'Event Show Map'),
  column('event_cost', 'Event Cost'),
  column('event_currency_code', 'Event Currency Code', 'Event ISO Currency Code'),
  column('event_currency_symbol', 'Event Currency Symbol'),
  column('event_currency_position', 'Event Currency Position'),
  column('event_category', 'Event Category'),
  column('event_tags', 'Event Tags'),
  column('event_website', 'Event Website'),
  column('featured_image', 'Featured Image', 'Event Featured Image'),
  column('event_comment_status', 'Event Comment Status', 'Event Allow Comments'),
  column('event_ping_status', 'Event Ping Status', 'Event Allow Trackbacks and Pingbacks'),
] as const;

export const VENUE_COLUMN_LIST = [
  column('venue_name', 'Venue Name'),
  column('venue_description', 'Venue Description'),
  column('venue_country', 'Venue Country'),
  column('venue_address', 'Venue Address'),
  column('venue_address2', 'Venue Address2', 'Venue Address 2'),
  column('venue_city', 'Venue City'),
  column('venue_state', 'Venue State', 'Venue State/Province'),
  column('venue_zip', 'Venue Zip'),
  column('venue_phone', 'Venue Phone'),
  column('venue_url', 'Venue URL', 'Venue Website'),
  column('featured_image', 'Featured Image', 'Venue Featured Image'),
] as const;

export const ORGANIZER_COLUMN_LIST = [
  column('organizer_name', 'Organizer Name'),
  column('organizer_description', 'Organizer Description'),
  column('organizer_email', 'Organizer Email'),
  column('organizer_website', 'Organizer Website'),
  column('organizer_phone', 'Organizer Phone'),
  column('featured_image', 'Featured Image', 'Organizer Featured Image'),
] as const;

export type EventKey = (typeof EVENT_COLUMN_LIST)[number]['key'];
export type VenueKey = (typeof VENUE_COLUMN_LIST)[number]['key'];
export type OrganizerKey = (typeof ORGANIZER_COLUMN_LIST)[number]['key'];

export const COLUMNS_OF = {
  events: EVENT_COLUMN_LIST,
  venues: VENUE_COLUMN_LIST,
  organizers: ORGANIZER_COLUMN_LIST,
} as const;

/** The header line we write for each kind. */
export const EVENT_COLUMNS = EVENT_COLUMN_LIST.map((c) => c.header);
export const VENUE_COLUMNS = VENUE_COLUMN_LIST.map((c) => c.header);
export const ORGANIZER_COLUMNS = ORGANIZER_COLUMN_LIST.map((c) => c.header);

/** The slug the plugin's import screen makes of a header to pre-select its column (aggregator-fields.js). */
export function columnSlug(header: string): string {
  return header
    .toLowerCase()
    .trim()
    .replace(/\s/g, '_')
    .replace(/[^a-z0-9_]/g, '');
}

/** The importer key a header of a file names for `kind`, or undefined for a column we do not read. */
export function keyOfHeader(kind: CsvKind, header: string): string | undefined {
  const slug = columnSlug(header);
  return COLUMNS_OF[kind].find(
    (c: Column<string>) => c.key === slug || c.also.some((other) => columnSlug(other) === slug),
  )?.key;
}

/** Which kind of records a header line holds: the one whose name column it has. */
export function kindOfHeaders(headers: string[]): CsvKind | null {
  const has = (kind: CsvKind, key: string) => headers.some((header) => keyOfHeader(kind, header) === key);
  if (has('events', 'event_name')) return 'events';
  if (has('venues', 'venue_name')) return 'venues';
  if (has('organizers', 'organizer_name')) return 'organizers';
  return null;
}
