import type { StoredEvent, StoredTerm, StoredVenue } from '../../store/schema';
import { dateDetails, sqlToMillis } from '../../core/dates/sqlDates';
import { costDetailsValues, eventCurrency, formatCost, siteCurrency, typedCost } from '../../core/cost';
import { timezoneAbbrAt } from '../../core/dates/zones';
import { globalId, permalink, postHeader, presentImage, type PresentEnv } from './common';
import { presentEmbeddedTerm } from './term';
import { presentOrganizer, presentVenue } from './linkedPosts';
import { eventJsonLd } from './jsonLd';
import { blankProtected } from './protect';
import { canChangePost } from '../../core/capabilities';
import { shownOrganizerIds, shownVenueId } from '../../core/eventLinks';
import { EVENT_FLAG_FIELDS, EVENT_TEXT_FIELDS } from '../../../shared/fields/event';
import { objectOfRows } from '../../../shared/fields/table';

interface EventOptions {
  /** Single reads carry `json_ld` (and their venue/organizers carry theirs). */
  single?: boolean;
  /** The password the request carries. */
  password?: string;
}

/** WordPress orders terms by name, case-insensitively; one collator (building one per comparison is slow). */
const NAME_ORDER = new Intl.Collator('en', { sensitivity: 'base' });

/** The terms an event embeds, in WordPress' order (by name, then id). */
export function embeddedTermsOf(ids: number[], env: Pick<PresentEnv, 'store'>): StoredTerm[] {
  return ids
    .map((id) => env.store.terms.get(id))
    .filter((term): term is StoredTerm => term !== undefined)
    .sort((a, b) => NAME_ORDER.compare(a.name, b.name) || a.id - b.id);
}

/** The venue an event shows (none when it has none or it is in the trash). */
export function shownVenueOf(event: StoredEvent, env: Pick<PresentEnv, 'store'>): StoredVenue | undefined {
  const venueId = shownVenueId(env.store, event);
  return venueId ? env.store.venues.get(venueId) : undefined;
}

/** The organizers an event shows, in its order. */
export function shownOrganizersOf(event: StoredEvent, env: Pick<PresentEnv, 'store'>) {
  return shownOrganizerIds(env.store, event).map((id) => env.store.organizers.get(id)!);
}

/**
 * `recurrence` and `recurrence_id` of an event (issue 13): the series' RFC 5545 lines, which its occurrences
 * show read-only from their head (`[]` for a single event), and its original start in the series (or null).
 */
export function eventSeriesFields(event: StoredEvent, env: Pick<PresentEnv, 'store'>) {
  const head = event.parentId && event.recurrenceId ? env.store.events.get(event.parentId) : event;
  return { recurrence: head?.recurrence ?? [], recurrence_id: event.recurrenceId ?? null };
}

/** `context=edit` by someone who may edit the event: the answer shows what was typed (as WordPress' `raw`). */
export function editsEvent(event: StoredEvent, env: PresentEnv): boolean {
  return env.editContext === true && canChangePost(env.caller, event, 'edit');
}

/** Whether the caller may see a password-protected event's content. */
export function canAccessProtected(
  event: StoredEvent,
  env: PresentEnv,
  password: string | undefined,
): boolean {
  // REFERENCE §6.3: no password, the right password, or `context=edit` by someone who may edit the event.
  return event.password === '' || password === event.password || editsEvent(event, env);
}

/**
 * The keys of an event record up to `featured`: they depend on the event, the site's settings, its image and
 * the addresses only (what follows embeds other records). Shown as to a caller who does not edit the event.
 */
export function eventOwnFields(event: StoredEvent, env: PresentEnv) {
  const site = siteCurrency(env.store.settings);
  const costText = formatCost(event.cost, event.currencySymbol, event.currencyPosition, site);
  const url = permalink(event, env.links);
  return {
    id: event.id,
    global_id: globalId(event.id, env.links),
    global_id_lineage: [globalId(event.id, env.links)],
    ...postHeader(event, env),
    rest_url: `${env.links.nsRoot}events/${event.id}`,
    ...objectOfRows(EVENT_TEXT_FIELDS, 'wire', (row) => event[row.stored]),
    slug: event.slug,
    image: presentImage(event.imageId, env),
    all_day: event.allDay,
    start_date: event.startLocal,
    start_date_details: dateDetails(event.startLocal),
    end_date: event.endLocal,
    end_date_details: dateDetails(event.endLocal),
    utc_start_date: event.startUtc,
    utc_start_date_details: dateDetails(event.startUtc),
    utc_end_date: event.endUtc,
    utc_end_date_details: dateDetails(event.endUtc),
    timezone: event.timezone,
    timezone_abbr: event.timezone
      ? timezoneAbbrAt(event.timezone, sqlToMillis(event.startLocal, event.timezone))
      : '',
    cost: costText,
    cost_details: {
      currency_symbol: event.currencySymbol,
      currency_code: event.currencyCode ?? '',
      currency_position: event.currencyPosition,
      values: costDetailsValues(event.cost),
    },
    website: event.website ?? url,
    ...objectOfRows(EVENT_FLAG_FIELDS, 'wire', (row) => event[row.stored]),
  };
}

/** An event record, key for key as the reference emits it (REFERENCE §3.1), plus `language` and `ticketed`. */
export function presentEvent(event: StoredEvent, env: PresentEnv, options: EventOptions = {}) {
  const single = options.single ?? false;
  const venue = shownVenueOf(event, env);
  const organizers = shownOrganizersOf(event, env);
  const own = eventOwnFields(event, env);
  const body = {
    ...own,
    // CONTRACT §2: stored as typed, shown formatted; an editor gets it back as typed to edit it.
    cost: editsEvent(event, env) ? typedCost(event.cost) : own.cost,
    categories: embeddedTermsOf(event.categoryIds, env).map((term) => presentEmbeddedTerm(term, env)),
    tags: embeddedTermsOf(event.tagIds, env).map((term) => presentEmbeddedTerm(term, env)),
    venue: venue ? (presentVenue(venue, env, { jsonLd: single }) as object) : ([] as unknown[]),
    organizer: organizers.map((organizer) => presentOrganizer(organizer, env, { jsonLd: single })),
    custom_fields: [] as unknown[],
    language: event.language,
    uid: event.uid,
    ...eventSeriesFields(event, env),
    ticketed: event.ticketed,
  };
  if (!canAccessProtected(event, env, options.password)) return blankProtected(body);
  // The reference's JSON-LD builder returns nothing for password-protected posts, so the key is omitted.
  if (!single || event.password !== '') return body;
  return {
    ...body,
    json_ld: eventJsonLd(event, env, {
      text: own.cost.replace(/[^\d.,–\s]/g, '').trim(),
      values: own.cost_details.values,
      currency: eventCurrency(event, siteCurrency(env.store.settings)).code,
    }),
  };
}
