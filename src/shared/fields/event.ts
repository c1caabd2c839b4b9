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
