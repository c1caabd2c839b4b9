import type { KeyedRow } from './table';

/** A yes/no field of an event: one row says where it goes in every writer. */
export interface FlagRow<K extends string = string> extends KeyedRow<K> {
  /** A new event's value when the write does not send one. */
  default: boolean;
  /** CSV column key (its headers, with the plugin importer's aliases, are in exchange/csvColumns.ts). */
  csv: string;
  /** The iCalendar property, after `X-CALENDAR-DESK-`, of TRUE or FALSE. */
  ics: string;
}

/**
 * The yes/no fields of an event (issue 29), in the order every writer emits them (REFERENCE §3.1): stored key,
 * wire key (the same in cal/events/v1 and tribe/events/v1; WordPress may answer a flag as a string, see the
 * remote dialects), a new event's value, CSV column and iCalendar property. The store's schema, core's write
 * rule, the presenter, the response schema, the sync's local and remote records and the pull, CSV and
 * iCalendar read these rows. Other event fields have their own rules (dates, cost, links, series).
 */
export const EVENT_FLAG_FIELDS = [
  { stored: 'showMap', wire: 'show_map', default: true, csv: 'event_show_map', ics: 'SHOW-MAP' },
  {
    stored: 'showMapLink',
    wire: 'show_map_link',
    default: true,
    csv: 'event_show_map_link',
    ics: 'SHOW-MAP-LINK',
  },
  {
    stored: 'hideFromListings',
    wire: 'hide_from_listings',
    default: false,
    csv: 'event_hide',
    ics: 'HIDE-FROM-LISTINGS',
  },
  { stored: 'sticky', wire: 'sticky', default: false, csv: 'event_sticky', ics: 'STICKY' },
  { stored: 'featured', wire: 'featured', default: false, csv: 'feature_event', ics: 'FEATURED' },
] as const satisfies readonly FlagRow[];

export type EventFlagRow = (typeof EVENT_FLAG_FIELDS)[number];
export type EventFlagKey = EventFlagRow['stored'];
export type EventFlagWire = EventFlagRow['wire'];

/** What a write may send for the flags: each by its wire key. */
export type EventFlagInput = { [R in EventFlagRow as R['wire']]?: boolean };

/** A text of an event: one row says how every writer treats it. */
export interface TextRow<K extends string = string> extends KeyedRow<K> {
  /**
   * `text` is plain text (markup removed on write; compared as written); `html` is sanitized HTML (compared
   * after the remote's formatting is undone, written to iCalendar as text plus its HTML).
   */
  type: 'text' | 'html';
  /** CSV column key (its headers are in exchange/csvColumns.ts). */
  csv: string;
  /** The iCalendar property, where the text has one. */
  ics?: 'SUMMARY' | 'DESCRIPTION';
}

/**
 * The texts of an event (issue 29), in the order every writer emits them (REFERENCE §3.1): the title, the
 * description and the excerpt. Core's write rule, the presenter, the response schema, the sync's local and
 * remote records and the pull, and CSV read these rows. The website is not a row: it falls back to the
 * permalink, and the sync leaves it alone until it is set (see `StoredEvent.website`). iCalendar writes them in
 * exchange/icsFields.ts (SUMMARY, DESCRIPTION with X-ALT-DESC); the excerpt has no property there.
 */
export const EVENT_TEXT_FIELDS = [
  { stored: 'title', wire: 'title', type: 'text', csv: 'event_name', ics: 'SUMMARY' },
  { stored: 'description', wire: 'description', type: 'html', csv: 'event_description', ics: 'DESCRIPTION' },
  { stored: 'excerpt', wire: 'excerpt', type: 'html', csv: 'event_excerpt' },
] as const satisfies readonly TextRow[];

export type EventTextRow = (typeof EVENT_TEXT_FIELDS)[number];

/** What a write may send for the texts: each by its wire key (an HTML text may be null: cleared). */
export type EventTextInput = {
  [R in EventTextRow as R['wire']]?: R['type'] extends 'html' ? string | null : string;
};
