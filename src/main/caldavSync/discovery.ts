import { CALDAV, DAV, el } from '../dav/xml';
import { RemoteError } from '../sync/remoteErrors';
import type { TransportOptions } from '../sync/remoteTransport';
import { DavCalendar, propElement, propText, type DavResponse } from './davCalendar';

/**
 * Finds the calendar to sync with from what the user typed (RFC 6764, RFC 5397, RFC 4791 §6.2.1): a calendar's
 * own address, or the server's (its `/.well-known/caldav` if the address is not DAV), then the account's
 * principal, its calendar home, and the calendars of events there, one picked by name when there are several.
 */

export interface FoundCalendar {
  /** The calendar collection's address (with its trailing slash). */
  url: string;
  name: string;
}

const DISCOVERY_PROPS = [
  el(DAV, 'resourcetype'),
  el(DAV, 'displayname'),
  el(DAV, 'current-user-principal'),
  el(CALDAV, 'calendar-home-set'),
  el(CALDAV, 'supported-calendar-component-set'),
];

const hrefIn = (response: DavResponse | undefined, ns: string, name: string) =>
  propElement(response, ns, name)
    ?.children.find((one) => one.ns === DAV && one.name === 'href')
    ?.text.trim() ?? null;

const isCalendar = (response: DavResponse) =>
  (propElement(response, DAV, 'resourcetype')?.children ?? []).some(
    (type) => type.ns === CALDAV && type.name === 'calendar',
  );

/** Whether a calendar takes events (a server may keep tasks or journals in calendars of their own). */
const takesEvents = (response: DavResponse) => {
  const set = propElement(response, CALDAV, 'supported-calendar-component-set');
  return (
    !set ||
    set.children.length === 0 ||
    set.children.some((comp) => comp.attributes.name?.toUpperCase() === 'VEVENT')
  );
};

const nameOf = (response: DavResponse) =>
  propText(response, DAV, 'displayname') ||
  decodeURIComponent(response.href.replace(/\/$/, '').split('/').pop() ?? '');

/** PROPFIND of the discovery properties; null when the address does not answer as DAV (not a 207). */
async function discoveryOf(dav: DavCalendar, url: string, depth: '0' | '1'): Promise<DavResponse[] | null> {
  try {
    return await dav.propfind(url, depth, DISCOVERY_PROPS);
  } catch (error) {
    if (error instanceof RemoteError && ['REMOTE_HTTP_ERROR', 'REMOTE_BAD_RECORD'].includes(error.code))
      return null;
    throw error;
  }
}

/** The calendars of events in the account's calendar home. */
async function calendarsIn(dav: DavCalendar, home: string): Promise<FoundCalendar[]> {
  const responses = (await discoveryOf(dav, home, '1')) ?? [];
  return responses
    .filter((response) => response.status === 200 && isCalendar(response) && takesEvents(response))
    .map((response) => ({ url: dav.hrefUrl(response.href), name: nameOf(response) }));
}

function pick(calendars: FoundCalendar[], wanted: string | undefined, address: string): FoundCalendar {
  if (calendars.length === 0)
    throw new RemoteError(
      'REMOTE_NOT_THIS_API',
      `${address} is a CalDAV server, but this account has no calendar of events there: create one (in its web ` +
        'page or a calendar app), then add it again.',
      null,
      'no_calendar',
    );
  const listed = calendars.map((calendar) => `"${calendar.name}"`).join(', ');
  if (wanted !== undefined) {
    const match = calendars.find(
      (calendar) =>
        calendar.name.toLowerCase() === wanted.toLowerCase() ||
        calendar.url.replace(/\/$/, '').split('/').pop() === wanted,
    );
    if (!match)
      throw new RemoteError(
        'REMOTE_NOT_THIS_API',
        `This account has no calendar named "${wanted}" on ${address}; its calendars: ${listed}.`,
        null,
        'no_such_calendar',
        { calendars: calendars.map((calendar) => calendar.name) },
      );
    return match;
  }
  if (calendars.length > 1)
    throw new RemoteError(
      'REMOTE_NOT_THIS_API',
      `This account has ${calendars.length} calendars on ${address} (${listed}): say which one to sync with ` +
        '(--calendar NAME, or the Calendar field).',
      null,
      'several_calendars',
      { calendars: calendars.map((calendar) => calendar.name) },
    );
  return calendars[0]!;
}

/** The calendar at or under `address` for these credentials; throws the RemoteError of the first problem. */
export async function findCalendar(
  address: string,
  options: TransportOptions,
  wanted?: string,
): Promise<FoundCalendar> {
  const start = new URL(address.trim());
  if (!start.pathname.endsWith('/')) start.pathname += '/';
  const dav = new DavCalendar(start.toString(), options);
  let url = start.toString();
  let here = await discoveryOf(dav, url, '0');
  if (!here) {
    url = new URL('/.well-known/caldav', start).toString();
    here = await discoveryOf(dav, url, '0');
  }
  if (!here)
    throw new RemoteError(
      'REMOTE_NOT_THIS_API',
      `${address} does not answer as a CalDAV server (nor at /.well-known/caldav). Give the address of your ` +
        'calendar server or of the calendar itself (Nextcloud: https://cloud.example.org/remote.php/dav).',
      null,
      'not_caldav',
    );
  const self = here[0];
  if (self && isCalendar(self)) {
    if (!takesEvents(self))
      throw new RemoteError('REMOTE_NOT_THIS_API', `${address} is a calendar of tasks, not of events.`);
    return { url: dav.hrefUrl(self.href), name: nameOf(self) };
  }
  let home = hrefIn(self, CALDAV, 'calendar-home-set');
  const principal = hrefIn(self, DAV, 'current-user-principal');
  if (!home && principal) {
    const [principalInfo] = (await discoveryOf(dav, dav.hrefUrl(principal), '0')) ?? [];
    home = hrefIn(principalInfo, CALDAV, 'calendar-home-set');
  }
  // An address of the calendar home itself, or a server that names no home: the calendars under the address.
  const calendars = await calendarsIn(dav, home ? dav.hrefUrl(home) : url);
  return pick(calendars, wanted, address);
}
