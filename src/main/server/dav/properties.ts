import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import type { CalendarStore } from '../../store/store';
import { canChangePost, canEditPosts, type Caller } from '../../core/capabilities';
import { htmlToText } from '../../core/html';
import type { CalendarObject, CalendarObjects } from '../../dav/calendarObjects';
import { DAV_ROOT, homePath, principalPath, type Target } from './paths';
import { syncTokenOf } from './syncTokens';
import { APPLE_ICAL, CALDAV, CALSERVER, DAV, el, type XmlOut, type XmlValue } from '../../dav/xml';

/** The properties of a resource, each computed when asked for (calendar-data costs a render). */
export type Properties = Map<string, () => XmlValue>;

export const propKey = (ns: string, name: string) => `${ns} ${name}`;

const href = (path: string): XmlOut[] => [el(DAV, 'href', path)];
const privileges = (names: string[]): XmlOut[] => names.map((name) => el(DAV, 'privilege', [el(DAV, name)]));

const READ = ['read', 'read-current-user-privilege-set'];
const WRITE = ['write', 'write-content', 'write-properties', 'bind', 'unbind'];

/** A VCALENDAR with the site's zone (calendar-timezone, RFC 4791 §5.2.2), or null for a bare UTC offset. */
function calendarTimezone(zone: string): string | null {
  let vtimezone: string | null = null;
  try {
    vtimezone = getVtimezoneComponent(zone);
  } catch {
    vtimezone = null;
  }
  if (!vtimezone) return null;
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Calendar Desk//calendar-desk//EN',
    vtimezone.trimEnd(),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

export interface PropertyContext {
  store: CalendarStore;
  objects: CalendarObjects;
  caller: Caller;
}

/** The properties every resource has (RFC 4918, RFC 5397, RFC 3744's current-user-privilege-set). */
function common(context: PropertyContext, properties: Properties): void {
  const { caller } = context;
  properties.set(propKey(DAV, 'current-user-principal'), () => href(principalPath(caller.login)));
  properties.set(propKey(DAV, 'principal-collection-set'), () => href(`${DAV_ROOT}principals/`));
}

/** The properties of a collection or principal target. */
export function collectionProperties(context: PropertyContext, target: Target): Properties {
  const { store, caller } = context;
  const properties: Properties = new Map();
  common(context, properties);
  const set = (ns: string, name: string, value: () => XmlValue) => properties.set(propKey(ns, name), value);
  const mayWrite = canEditPosts(caller);
  switch (target.kind) {
    case 'root':
    case 'principals':
    case 'calendars':
      set(DAV, 'resourcetype', () => [el(DAV, 'collection')]);
      set(DAV, 'current-user-privilege-set', () => privileges(READ));
      break;
    case 'principal':
      set(DAV, 'resourcetype', () => [el(DAV, 'collection'), el(DAV, 'principal')]);
      set(DAV, 'displayname', () => caller.login);
      set(DAV, 'principal-URL', () => href(principalPath(caller.login)));
      set(CALDAV, 'calendar-home-set', () => href(homePath(caller.login)));
      set(CALDAV, 'calendar-user-address-set', () => href(principalPath(caller.login)));
      set(DAV, 'current-user-privilege-set', () => privileges(READ));
      break;
    case 'home':
      set(DAV, 'resourcetype', () => [el(DAV, 'collection')]);
      set(DAV, 'displayname', () => caller.login);
      set(DAV, 'owner', () => href(principalPath(caller.login)));
      set(DAV, 'current-user-privilege-set', () => privileges(READ));
      break;
    case 'calendar': {
      const token = () => syncTokenOf(store, caller);
      set(DAV, 'resourcetype', () => [el(DAV, 'collection'), el(CALDAV, 'calendar')]);
      set(DAV, 'displayname', () => htmlToText(store.settings.siteName) || 'Calendar Desk');
      set(DAV, 'owner', () => href(principalPath(caller.login)));
      set(CALDAV, 'calendar-description', () => 'The events of Calendar Desk you may see');
      set(CALDAV, 'supported-calendar-component-set', () => [el(CALDAV, 'comp', null, { name: 'VEVENT' })]);
      set(CALDAV, 'supported-calendar-data', () => [
        el(CALDAV, 'calendar-data', null, { 'content-type': 'text/calendar', version: '2.0' }),
      ]);
      set(CALDAV, 'calendar-timezone', () => calendarTimezone(store.settings.timezone));
      set(CALSERVER, 'getctag', token);
      set(DAV, 'sync-token', token);
      set(DAV, 'current-user-privilege-set', () => privileges(mayWrite ? [...READ, ...WRITE] : READ));
      set(DAV, 'supported-report-set', () =>
        ['calendar-multiget', 'calendar-query', 'sync-collection'].map((name) =>
          el(DAV, 'supported-report', [
            el(DAV, 'report', [el(name === 'sync-collection' ? DAV : CALDAV, name)]),
          ]),
        ),
      );
      set(APPLE_ICAL, 'calendar-color', () => '#2f6f9fff');
      set(DAV, 'getcontenttype', () => 'httpd/unix-directory');
      break;
    }
    default:
      break;
  }
  return properties;
}

/** The properties of one calendar object resource. */
export function objectProperties(context: PropertyContext, object: CalendarObject): Properties {
  const { objects, caller } = context;
  const properties: Properties = new Map();
  common(context, properties);
  const rendered = () => objects.render(caller, object);
  const set = (ns: string, name: string, value: () => XmlValue) => properties.set(propKey(ns, name), value);
  set(DAV, 'resourcetype', () => null);
  set(DAV, 'getetag', () => objects.etag(caller, object));
  set(DAV, 'getcontenttype', () => 'text/calendar; charset=utf-8; component=VEVENT');
  set(DAV, 'getcontentlength', () => String(Buffer.byteLength(rendered().text)));
  set(DAV, 'getlastmodified', () =>
    new Date(
      `${object.members.reduce((a, e) => (e.modifiedUtc > a ? e.modifiedUtc : a), '').replace(' ', 'T')}Z`,
    ).toUTCString(),
  );
  set(DAV, 'displayname', () => htmlToText(object.head.title));
  set(CALDAV, 'calendar-data', () => rendered().text);
  set(DAV, 'current-user-privilege-set', () =>
    privileges(canChangePost(caller, object.head, 'edit') ? [...READ, ...WRITE] : READ),
  );
  return properties;
}
