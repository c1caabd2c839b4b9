import { propKey, type Properties } from './properties';
import { DAV, el, type XmlOut } from '../../dav/xml';

export { CALENDAR_DESK_NS, DavError } from '../../dav/davError';

export interface Requested {
  /** allprop (or an empty PROPFIND body). */
  all: boolean;
  names: Array<{ ns: string; name: string }>;
}

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 403: 'Forbidden', 404: 'Not Found' };
export const statusLine = (status: number) => `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ''}`.trim();

/** The `<propstat>`s of one resource: what it has (200) and what it does not (404). */
export function propstats(properties: Properties, requested: Requested): XmlOut[] {
  const found: XmlOut[] = [];
  const missing: XmlOut[] = [];
  const wanted = requested.all
    ? [...properties.keys()]
        .filter((key) => !key.endsWith(' calendar-data'))
        .map((key) => {
          const space = key.lastIndexOf(' ');
          return { ns: key.slice(0, space), name: key.slice(space + 1) };
        })
    : requested.names;
  for (const { ns, name } of wanted) {
    const value = properties.get(propKey(ns, name));
    if (value) {
      const computed = value();
      if (computed !== null || name === 'resourcetype') found.push(el(ns, name, computed));
      else missing.push(el(ns, name));
    } else missing.push(el(ns, name));
  }
  const stat = (props: XmlOut[], status: number) =>
    el(DAV, 'propstat', [el(DAV, 'prop', props), el(DAV, 'status', statusLine(status))]);
  return [...(found.length ? [stat(found, 200)] : []), ...(missing.length ? [stat(missing, 404)] : [])];
}

/** A `<response>` with only a status (a member that is gone, a multiget href that names nothing). */
export const statusResponse = (href: string, status: number): XmlOut =>
  el(DAV, 'response', [el(DAV, 'href', href), el(DAV, 'status', statusLine(status))]);
