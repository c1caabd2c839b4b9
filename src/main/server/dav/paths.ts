/**
 * Where CalDAV's resources live on the local server (RFC 4791, discovery by RFC 6764):
 * `/dav/` (context path), `/dav/principals/<login>/`, `/dav/calendars/<login>/` (calendar home) and
 * `/dav/calendars/<login>/events/` (the calendar), whose resources are `<uid>.ics`.
 */
export const DAV_ROOT = '/dav/';
export const WELL_KNOWN = '/.well-known/caldav';

const segment = (login: string) => encodeURIComponent(login);
export const principalPath = (login: string) => `${DAV_ROOT}principals/${segment(login)}/`;
export const homePath = (login: string) => `${DAV_ROOT}calendars/${segment(login)}/`;
export const calendarPath = (login: string) => `${homePath(login)}events/`;
export const objectPath = (login: string, name: string) =>
  `${calendarPath(login)}${encodeURIComponent(name)}`;

export type Target =
  | { kind: 'root' }
  | { kind: 'principals' }
  | { kind: 'principal'; login: string }
  | { kind: 'calendars' }
  | { kind: 'home'; login: string }
  | { kind: 'calendar'; login: string }
  | { kind: 'object'; login: string; name: string };

const decode = (part: string): string | null => {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
};

/** What a path under `/dav` names, or null for nothing. A trailing slash is optional on collections. */
export function targetOf(path: string): Target | null {
  if (path === '/' || path === '/dav' || path === DAV_ROOT) return { kind: 'root' };
  if (!path.startsWith(DAV_ROOT)) return null;
  const parts = path.slice(DAV_ROOT.length).split('/');
  if (parts.at(-1) === '') parts.pop();
  const decoded = parts.map(decode);
  if (decoded.some((part) => part === null || part === '')) return null;
  const [area, login, calendar, name, ...rest] = decoded as string[];
  if (rest.length) return null;
  if (area === 'principals') {
    if (login === undefined) return { kind: 'principals' };
    return calendar === undefined ? { kind: 'principal', login } : null;
  }
  if (area !== 'calendars') return null;
  if (login === undefined) return { kind: 'calendars' };
  if (calendar === undefined) return { kind: 'home', login };
  if (calendar !== 'events') return null;
  if (name === undefined) return { kind: 'calendar', login };
  return { kind: 'object', login, name };
}

/** The resource name a `href` of a multiget names in the caller's calendar, or null. */
export function objectNameOfHref(href: string, login: string): string | null {
  let path = href.trim();
  try {
    if (/^https?:/i.test(path)) path = new URL(path).pathname;
  } catch {
    return null;
  }
  const target = targetOf(path);
  return target?.kind === 'object' && target.login.toLowerCase() === login.toLowerCase() ? target.name : null;
}
