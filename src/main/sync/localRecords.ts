import type { CalendarStore } from '../store/store';
import { venueTextWire } from '../../shared/fields/venue';
import { organizerTextWire } from '../../shared/fields/organizer';
import type { StoredEvent, StoredOrganizer, StoredTerm, StoredVenue } from '../store/schema';
import { costDetailsValues, costWithSymbol, eventCurrency, siteCurrency } from '../core/cost';
import { shownOrganizerIds, shownVenueId } from '../core/eventLinks';
import type { LocalImage, LocalRecord } from './model';
import { currencySymbolSchema } from '../../shared/schemas/currency';
import { EVENT_FLAG_FIELDS, EVENT_TEXT_FIELDS } from '../../shared/fields/event';
import { objectOfRows } from '../../shared/fields/table';

/** The picture a record shows, as the sync sends it (a media id whose item is gone counts as none). */
function localImage(store: CalendarStore, imageId: number | null): LocalImage | null {
  const media = imageId ? store.media.get(imageId) : undefined;
  return media ? { mediaId: media.id, fileName: media.fileName, url: media.url } : null;
}

/** A category or tag as the sync sends it. */
export function localTerm(term: StoredTerm): LocalRecord {
  return {
    kind: term.taxonomy,
    id: term.id,
    revision: term.revision,
    slug: term.slug,
    deleted: false,
    fields: { name: term.name, slug: term.slug, description: term.description },
    refs: term.taxonomy === 'category' ? { parent: term.parent } : {},
    send: { uid: term.uid },
  };
}

export function localVenue(venue: StoredVenue, store: CalendarStore): LocalRecord {
  return {
    kind: 'venue',
    id: venue.id,
    revision: venue.revision,
    slug: venue.slug,
    deleted: venue.status === 'trash',
    fields: {
      venue: venue.name,
      slug: venue.slug,
      status: venue.status,
      description: venue.description,
      ...venueTextWire((key) => venue[key]),
      show_map: venue.showMap,
      show_map_link: venue.showMapLink,
      // Sent only when known: the original plugin has no coordinates.
      ...(venue.geoLat !== null && venue.geoLng !== null
        ? { geo_lat: venue.geoLat, geo_lng: venue.geoLng }
        : {}),
    },
    refs: {},
    send: { uid: venue.uid },
    image: localImage(store, venue.imageId),
  };
}

export function localOrganizer(organizer: StoredOrganizer, store: CalendarStore): LocalRecord {
  return {
    kind: 'organizer',
    id: organizer.id,
    revision: organizer.revision,
    slug: organizer.slug,
    deleted: organizer.status === 'trash',
    fields: {
      organizer: organizer.name,
      slug: organizer.slug,
      status: organizer.status,
      description: organizer.description,
      ...organizerTextWire((key) => organizer[key]),
    },
    refs: {},
    send: { uid: organizer.uid },
    image: localImage(store, organizer.imageId),
  };
}

/**
 * The cost as sent to WordPress: the typed texts, with the currency it is shown in here written into bare
 * numbers (the original plugin reads the currency from the text alone: `15` would become the remote's `$15`).
 * Not compared: the planner pushes a local change by its revision, and the remote's currency is its own.
 */
function eventCostToSend(event: StoredEvent, store: CalendarStore): Record<string, unknown> {
  const cost = costWithSymbol(event.cost, eventCurrency(event, siteCurrency(store.settings)));
  return { cost: costValue(cost), ...ownCurrency(event) };
}

/**
 * The cost as sent to another Calendar Desk: as typed, with the event's own currency fields as they are ('' =
 * the site's default stays so there), so both store the same record (a bare `10` stays `10`).
 */
function eventCostToCalendarDesk(event: StoredEvent): Record<string, unknown> {
  return { cost: costValue(event.cost), ...ownCurrency(event) };
}

const costValue = (values: string[]) => (values.length === 1 ? values[0] : values.length === 0 ? '' : values);

/** The event's own currency fields as the API takes them (the original ignores them as unknown fields). */
function ownCurrency(event: StoredEvent): Record<string, unknown> {
  // A currency read from the cost text may be one the API does not take as a symbol (`10 Schweizerfranken`,
  // `<10`): the text is sent as typed, and the remote reads the same currency from it.
  const sendable = currencySymbolSchema.safeParse(event.currencySymbol).success;
  return {
    currency_symbol: sendable ? event.currencySymbol : '',
    currency_position: sendable ? event.currencyPosition : '',
    currency_code: event.currencyCode ?? '',
  };
}

export function localEvent(event: StoredEvent, store: CalendarStore): LocalRecord {
  return {
    kind: 'event',
    id: event.id,
    revision: event.revision,
    slug: event.slug,
    deleted: event.status === 'trash',
    fields: {
      slug: event.slug,
      status: event.status,
      all_day: event.allDay,
      start_date: event.startLocal,
      end_date: event.endLocal,
      timezone: event.timezone,
      cost: costDetailsValues(event.cost),
      // Never set: the remote shows its own permalink, so there is nothing to compare.
      ...(event.website !== null ? { website: event.website } : {}),
      ...objectOfRows(EVENT_FLAG_FIELDS, 'wire', (row) => event[row.stored]),
      // Spread last, as the flags: an object literal that starts with a spread made every later read of these
      // records slower (an unchanged sync of 10,000 events took 1.7× as long).
      ...objectOfRows(EVENT_TEXT_FIELDS, 'wire', (row) => event[row.stored]),
    },
    refs: {
      // What the event shows: a venue or organizer in the trash is not sent (its remote copy is deleted).
      venue: shownVenueId(store, event),
      organizer: shownOrganizerIds(store, event),
      categories: event.categoryIds,
      tags: event.tagIds,
    },
    // Taken by a Calendar Desk on create (the same record on both, CONTRACT §2); WordPress ignores it.
    send: { ...eventCostToSend(event, store), uid: event.uid },
    sendToCalendarDesk: eventCostToCalendarDesk(event),
    // A cost without an amount ("Free", "0", "Donation") shows no currency anywhere.
    ...(costDetailsValues(event.cost).some((value) => Number(value) > 0)
      ? { shownCurrency: eventCurrency(event, siteCurrency(store.settings)) }
      : {}),
    image: localImage(store, event.imageId),
    password: event.password,
    ...(event.recurrenceId === undefined
      ? {}
      : {
          series: {
            headId: event.parentId === 0 ? event.id : event.parentId,
            recurrenceId: event.recurrenceId,
            override: event.override === true,
            ...(event.recurrence ? { lines: event.recurrence } : {}),
          },
        }),
  };
}

/** Every record of the calendar the sync pushes (trashed posts included: they become deletions). */
export function localRecords(store: CalendarStore): LocalRecord[] {
  return [
    ...[...store.terms.values()].map(localTerm),
    ...[...store.venues.values()].map((venue) => localVenue(venue, store)),
    ...[...store.organizers.values()].map((organizer) => localOrganizer(organizer, store)),
    ...[...store.events.values()].map((event) => localEvent(event, store)),
  ];
}

/** One record of the calendar as the sync sends it now (after a pull changed it), or null when it is gone. */
export function localRecordOf(
  store: CalendarStore,
  kind: LocalRecord['kind'],
  id: number,
): LocalRecord | null {
  if (kind === 'event') {
    const event = store.events.get(id);
    return event ? localEvent(event, store) : null;
  }
  if (kind === 'venue') {
    const venue = store.venues.get(id);
    return venue ? localVenue(venue, store) : null;
  }
  if (kind === 'organizer') {
    const organizer = store.organizers.get(id);
    return organizer ? localOrganizer(organizer, store) : null;
  }
  const term = store.terms.get(id);
  return term ? localTerm(term) : null;
}
