import type ICAL from 'ical.js';
import type { EventInput } from '../core/eventRecord';
import { sanitizeRichText } from '../core/html';
import type { StoredEvent, StoredOrganizer, StoredVenue } from '../store/schema';
import type { PostStatus } from '../../shared/enums';
import type { ImportProblem } from './errors';
import { EVENT_FLAG_FIELDS, EVENT_TEXT_FIELDS } from '../../shared/fields/event';

/*
 * The iCalendar mapping of an event's fields (issue 30 item 3), written once: the .ics export (ics.ts) writes
 * these properties, the .ics import and CalDAV PUT (icsImport.ts) read them back, and the CalDAV server keeps
 * per user only what is not in this table (dav/keptProperties.ts). What RFC 5545 has a property for
 * goes there; the rest goes in `X-CALENDAR-DESK-*` properties that another Calendar Desk reads back.
 *
 *   title            SUMMARY (plain text)
 *   description      DESCRIPTION (plain text) + X-ALT-DESC;FMTTYPE=text/html (sanitized HTML, read back first)
 *   dates            DTSTART/DTEND with TZID + VTIMEZONE, VALUE=DATE when all-day (ics.ts, icsSeries.ts)
 *   series           RRULE/RDATE/EXDATE, overrides as RECURRENCE-ID VEVENTs (icsSeries.ts)
 *   venue            LOCATION (name, address…; read back by name) + GEO when the venue has coordinates
 *   organizers       ORGANIZER;CN=…:mailto:… (the first with an e-mail: RFC 5545 allows one) and every one, in
 *                    order, as X-CALENDAR-DESK-ORGANIZER;CN=…:mailto:… (read back by name/e-mail)
 *   categories       CATEGORIES
 *   website          URL
 *   status           STATUS (publish/future/private → CONFIRMED, draft/pending → TENTATIVE) and the status
 *                    itself as X-CALENDAR-DESK-STATUS; see statusInput for how it is read
 *   cost, currency   X-CALENDAR-DESK-COST / -CURRENCY-* (icsCost.ts)
 *   flags            X-CALENDAR-DESK-FEATURED / -STICKY / -HIDE-FROM-LISTINGS / -SHOW-MAP / -SHOW-MAP-LINK
 *                    (TRUE/FALSE)
 *
 * Not mapped: tags (only categories go to CATEGORIES), excerpt, image, author, slug, ticketing, publication date.
 */

export const X_PREFIX = 'X-CALENDAR-DESK-';
export const X_ALT_DESC = 'X-ALT-DESC';
export const X_STATUS = `${X_PREFIX}STATUS`;
export const X_ORGANIZER = `${X_PREFIX}ORGANIZER`;

/** The properties this mapping writes itself: never kept from a client (any `X-CALENDAR-DESK-*` neither). */
export const MAPPED_PROPERTIES: ReadonlySet<string> = new Set([
  'UID',
  'DTSTAMP',
  'DTSTART',
  'DTEND',
  'DURATION',
  ...EVENT_TEXT_FIELDS.flatMap((row) => ('ics' in row ? [row.ics] : [])),
  'LOCATION',
  'URL',
  'CATEGORIES',
  'ORGANIZER',
  'RRULE',
  'RDATE',
  'EXDATE',
  'RECURRENCE-ID',
  'LAST-MODIFIED',
  'STATUS',
  'GEO',
  X_ALT_DESC,
  'SEQUENCE',
]);

export const isMappedProperty = (name: string): boolean =>
  MAPPED_PROPERTIES.has(name) || name.startsWith(X_PREFIX);

/** The yes/no fields, each as an `X-CALENDAR-DESK-*` property of TRUE or FALSE. */
const FLAGS = EVENT_FLAG_FIELDS.map((row) => [row.stored, row.wire, `${X_PREFIX}${row.ics}`] as const);

/** STATUS of a stored status; statuses an export never writes (trash…) have none. */
const ICAL_STATUS: Partial<Record<PostStatus, 'CONFIRMED' | 'TENTATIVE'>> = {
  publish: 'CONFIRMED',
  future: 'CONFIRMED',
  private: 'CONFIRMED',
  draft: 'TENTATIVE',
  pending: 'TENTATIVE',
};

export const icalStatusOf = (status: string): 'CONFIRMED' | 'TENTATIVE' | null =>
  ICAL_STATUS[status as PostStatus] ?? null;

/**
 * One organizer as TEXT, `name <mailto:email>` (or the name alone): ical-generator writes an `X-` property's
 * name in capitals, so a CN parameter there would not keep the name as typed.
 */
const organizerProperty = (organizer: StoredOrganizer, name: string): [string, string] => [
  X_ORGANIZER,
  organizer.email ? `${name} <mailto:${organizer.email}>` : name,
];

/**
 * An `X-` property's value as TEXT (RFC 5545 §3.3.11): ical.js gives an unknown property's value as written,
 * escapes and all.
 */
const unescapeText = (value: string) =>
  value.replace(/\\([\\;,nN])/g, (_, char: string) => (char === 'n' || char === 'N' ? '\n' : char));

/** The GEO of a venue with coordinates (ical-generator's `location.geo`), else undefined. */
export function geoOf(venue: StoredVenue | undefined): { lat: number; lon: number } | undefined {
  if (!venue || venue.geoLat === null || venue.geoLng === null) return undefined;
  return { lat: venue.geoLat, lon: venue.geoLng };
}

/** The `X-CALENDAR-DESK-*` properties of an event other than its cost: status, organizers, flags. */
export function deskProperties(
  event: StoredEvent,
  organizers: { organizer: StoredOrganizer; name: string }[],
): [string, string][] {
  return [
    [X_STATUS, event.status],
    ...organizers.map(({ organizer, name }) => organizerProperty(organizer, name)),
    ...FLAGS.map(([field, , property]): [string, string] => [property, event[field] ? 'TRUE' : 'FALSE']),
  ];
}

/**
 * A venue's coordinates from GEO, for the venue LOCATION names (created or matched by name, then given these
 * coordinates, as an inline venue of the API is). A GEO that is not two numbers in range is left out.
 */
export function geoInput(component: ICAL.Component): { geo_lat?: number; geo_lng?: number } {
  const value: unknown = component.getFirstPropertyValue('geo');
  if (!Array.isArray(value) || value.length !== 2) return {};
  const [lat, lng] = value.map(Number) as [number, number];
  if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) return {};
  return { geo_lat: lat, geo_lng: lng };
}

/** An `X-` property's first value as text, unescaped; null when the VEVENT has none. */
export const xText = (component: ICAL.Component, name: string): string | null => {
  const value = component.getFirstPropertyValue(name.toLowerCase());
  return typeof value === 'string' ? unescapeText(value) : null;
};

/** The description: the sanitized HTML of X-ALT-DESC;FMTTYPE=text/html when there is one, else DESCRIPTION. */
export function descriptionInput(component: ICAL.Component, plain: string | null): string | undefined {
  const html = component
    .getAllProperties(X_ALT_DESC.toLowerCase())
    .find((property) => String(property.getParameter('fmttype') ?? '').toLowerCase() === 'text/html');
  const value = html?.getFirstValue();
  if (typeof value === 'string' && value.trim() !== '') return sanitizeRichText(unescapeText(value));
  return plain ?? undefined;
}

const mailOf = (value: unknown) => (typeof value === 'string' ? value.replace(/^mailto:/i, '').trim() : '');

/**
 * The organizers: every X-CALENDAR-DESK-ORGANIZER in order when there is one (ours), else the ORGANIZER with a
 * CN (another calendar's). Each goes as an inline organizer, which the write matches to a stored one by name
 * (core/linkedPosts.ts), as the API does. None: the event's organizers are left as they are.
 */
export function organizerInput(component: ICAL.Component): Partial<EventInput> {
  const ours = component
    .getAllProperties(X_ORGANIZER.toLowerCase())
    .map((property) => unescapeText(String(property.getFirstValue() ?? '')))
    .map((text) => {
      const found = /^(.*?)\s*<mailto:([^>]*)>$/i.exec(text);
      return found ? { organizer: found[1]!.trim(), email: found[2]!.trim() } : { organizer: text.trim() };
    });
  const theirs = component
    .getAllProperties('organizer')
    .slice(0, 1)
    .map((property) => ({
      organizer: String(property.getParameter('cn') ?? '').trim(),
      email: mailOf(property.getFirstValue()),
    }));
  const list = (ours.length ? ours : theirs)
    .filter((entry) => entry.organizer !== '')
    .map((entry) => (entry.email ? entry : { organizer: entry.organizer }));
  return list.length ? { organizer: list } : {};
}

/**
 * The status, conservatively: only a VEVENT that carries X-CALENDAR-DESK-STATUS (written by a Calendar Desk)
 * sets one. Its value is taken while STATUS still says what it maps to; when a calendar app changed STATUS since
 * (TENTATIVE ↔ CONFIRMED), the change wins: TENTATIVE is a draft, CONFIRMED published. Another calendar's
 * STATUS alone sets nothing (Google writes CONFIRMED on everything), and CANCELLED on a whole event sets
 * nothing either (a cancelled date of a series is an EXDATE: icsImport.ts). The write then applies the
 * caller's role (a contributor's event stays pending), as the API does.
 */
export function statusInput(
  component: ICAL.Component,
  line: number,
  problems: ImportProblem[],
): Partial<EventInput> {
  const ours = xText(component, X_STATUS)?.trim().toLowerCase();
  if (!ours) return {};
  if (!(ours in ICAL_STATUS)) {
    problems.push({
      line,
      message: `${X_STATUS}: "${ours}" is not a status an event can be given (publish, future, private, draft, pending).`,
    });
    return {};
  }
  const theirs = xText(component, 'STATUS')?.trim().toUpperCase();
  if (theirs === 'TENTATIVE' && icalStatusOf(ours) !== 'TENTATIVE') return { status: 'draft' };
  if (theirs === 'CONFIRMED' && icalStatusOf(ours) !== 'CONFIRMED') return { status: 'publish' };
  return { status: ours };
}

/** The yes/no fields of their `X-CALENDAR-DESK-*` properties; one that is not TRUE or FALSE is a problem. */
export function flagInput(
  component: ICAL.Component,
  line: number,
  problems: ImportProblem[],
): Partial<EventInput> {
  const input: Partial<EventInput> = {};
  for (const [, field, property] of FLAGS) {
    const value = xText(component, property)?.trim().toUpperCase();
    if (value === undefined) continue;
    if (value === 'TRUE' || value === 'FALSE') Object.assign(input, { [field]: value === 'TRUE' });
    else problems.push({ line, message: `${property}: write TRUE or FALSE (not "${value}").` });
  }
  return input;
}
