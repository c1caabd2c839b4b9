import { DAV, el, type XmlOut } from './xml';

/** Calendar Desk's own namespace, for the human-readable message of a refused request. */
export const CALENDAR_DESK_NS = 'urn:calendar-desk:dav';

/** A refused request with its precondition (RFC 4918 §16): `<d:error><ns:name/><cd:message>…` */
export class DavError extends Error {
  constructor(
    readonly status: number,
    readonly ns: string,
    readonly condition: string,
    message: string,
  ) {
    super(message);
  }

  body(): XmlOut {
    return el(DAV, 'error', [el(this.ns, this.condition), el(CALENDAR_DESK_NS, 'message', this.message)]);
  }
}
