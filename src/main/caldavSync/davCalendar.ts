import {
  buildXml,
  CALDAV,
  CALSERVER,
  child,
  childrenNamed,
  DAV,
  el,
  parseXml,
  type XmlElement,
  type XmlOut,
} from '../dav/xml';
import { RemoteError } from '../sync/remoteErrors';
import type { TransportOptions } from '../sync/remoteTransport';
import { DavTransport, type DavAnswer } from './davTransport';

/**
 * One calendar collection on a CalDAV server, as the sync reads and writes it: its state (ctag, sync token),
 * the ETags of its resources (PROPFIND), the changes since a token (sync-collection, RFC 6578), resources in
 * batches (calendar-multiget, which does not expand series: some servers fail on expansions), and writes with
 * If-Match / If-None-Match so a concurrent edit there is never overwritten.
 */

/** One response of a multistatus: its href (a path), status, and properties by `ns name`. */
export interface DavResponse {
  href: string;
  status: number;
  props: Map<string, XmlElement>;
}

/** A write refused because the resource changed (or exists) on the server since it was read. */
/** A PUT's precondition: the ETag the resource must still have, `'new'` (it must not exist yet) or null (forced). */
export type WriteCondition = string | null;

export class StaleResourceError extends Error {}

export const MULTIGET_BATCH = 100;

/** A resource read: its ETag and text, or the status the server answered instead. */
export type Fetched = { etag: string | null; text: string } | { status: number };
const key = (ns: string, name: string) => `${ns} ${name}`;
const statusOf = (line: string | undefined) => Number(/\s(\d{3})\s?/.exec(line ?? '')?.[1] ?? 200);

/** A server's XML answer read as its responses; a body that is not a multistatus is REMOTE_BAD_RECORD. */
export function multistatusOf(text: string, url: string, base: string): DavResponse[] {
  let root: XmlElement | null;
  try {
    root = parseXml(text);
  } catch (error) {
    throw new RemoteError(
      'REMOTE_BAD_RECORD',
      `${url} answered XML that cannot be read: ${(error as Error).message}`,
    );
  }
  if (!root || root.ns !== DAV || root.name !== 'multistatus')
    throw new RemoteError(
      'REMOTE_BAD_RECORD',
      `${url} did not answer a WebDAV multistatus: is this a CalDAV address?`,
    );
  return childrenNamed(root, DAV, 'response').map((response) => {
    const href = new URL(child(response, DAV, 'href')?.text ?? '', base).pathname;
    const props = new Map<string, XmlElement>();
    let status = statusOf(child(response, DAV, 'status')?.text);
    for (const propstat of childrenNamed(response, DAV, 'propstat')) {
      const propStatus = statusOf(child(propstat, DAV, 'status')?.text);
      if (propStatus !== 200) continue;
      status = 200;
      for (const prop of child(propstat, DAV, 'prop')?.children ?? [])
        props.set(key(prop.ns, prop.name), prop);
    }
    return { href, status, props };
  });
}

export const propText = (response: DavResponse | undefined, ns: string, name: string) =>
  response?.props.get(key(ns, name))?.text.trim() ?? null;
export const propElement = (response: DavResponse | undefined, ns: string, name: string) =>
  response?.props.get(key(ns, name));

const propfindBody = (props: XmlOut[]) => buildXml(el(DAV, 'propfind', [el(DAV, 'prop', props)]));

/** What a sync-collection REPORT told: resources changed (with ETags) and gone, and the new token. */
export interface CollectionChanges {
  changed: Map<string, string | null>;
  gone: Set<string>;
  token: string;
}

export class DavCalendar {
  readonly transport: DavTransport;
  readonly path: string;

  constructor(
    readonly url: string,
    options: TransportOptions,
  ) {
    this.transport = new DavTransport(url, options);
    this.path = new URL(url).pathname;
  }

  hrefUrl = (href: string) => new URL(href, this.url).toString();

  /** The error of an answer that is not what was asked, in the server's words where it gave some. */
  failure(answer: DavAnswer, what: string): RemoteError {
    const host = new URL(this.url).host;
    if (answer.status === 401)
      return new RemoteError(
        'REMOTE_BAD_CREDENTIALS',
        `The calendar server ${host} refused the user name or password (HTTP 401). Check them (on Nextcloud, ` +
          'use an app password from Settings → Security).',
        401,
      );
    if (answer.status === 403)
      return new RemoteError(
        'REMOTE_INSUFFICIENT_ROLE',
        `The calendar server ${host} refused ${what} (HTTP 403): this account may not do that on this calendar.`,
        403,
      );
    const said = answer.text
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 300);
    return new RemoteError(
      'REMOTE_HTTP_ERROR',
      `The calendar server ${host} answered HTTP ${answer.status} to ${what}${said ? `: ${said}` : ''}.`,
      answer.status,
    );
  }

  async propfind(url: string, depth: '0' | '1', props: XmlOut[]): Promise<DavResponse[]> {
    const answer = await this.transport.request('PROPFIND', url, {
      body: propfindBody(props),
      headers: { Depth: depth, 'Content-Type': 'application/xml; charset=utf-8' },
    });
    if (answer.status !== 207) throw this.failure(answer, `reading ${url}`);
    return multistatusOf(answer.text, url, this.url);
  }

  /** The collection's own state: that it is a calendar, its name, ctag and sync token (null where not offered). */
  async state(): Promise<{ isCalendar: boolean; name: string; ctag: string | null; token: string | null }> {
    const [self] = await this.propfind(this.url, '0', [
      el(DAV, 'resourcetype'),
      el(DAV, 'displayname'),
      el(CALSERVER, 'getctag'),
      el(DAV, 'sync-token'),
    ]);
    const types = propElement(self, DAV, 'resourcetype')?.children ?? [];
    return {
      isCalendar: types.some((type) => type.ns === CALDAV && type.name === 'calendar'),
      name: propText(self, DAV, 'displayname') ?? '',
      ctag: propText(self, CALSERVER, 'getctag'),
      token: propText(self, DAV, 'sync-token'),
    };
  }

  /** Every resource of the calendar with its ETag (PROPFIND depth 1). */
  async etags(): Promise<Map<string, string | null>> {
    const responses = await this.propfind(this.url, '1', [el(DAV, 'getetag'), el(DAV, 'resourcetype')]);
    const found = new Map<string, string | null>();
    for (const response of responses) {
      if (response.href === this.path || response.status !== 200) continue;
      const isCollection = (propElement(response, DAV, 'resourcetype')?.children.length ?? 0) > 0;
      if (!isCollection) found.set(response.href, propText(response, DAV, 'getetag'));
    }
    return found;
  }

  /**
   * What changed since `token` (RFC 6578); null when the server offers no sync-collection or no longer knows
   * the token (the caller then lists everything).
   */
  async changesSince(token: string): Promise<CollectionChanges | null> {
    const body = buildXml(
      el(DAV, 'sync-collection', [
        el(DAV, 'sync-token', token),
        el(DAV, 'sync-level', '1'),
        el(DAV, 'prop', [el(DAV, 'getetag')]),
      ]),
    );
    // A server that fails on the REPORT (5xx) is listed by PROPFIND instead.
    const answer = await this.transport
      .request('REPORT', this.url, {
        body,
        headers: { Depth: '0', 'Content-Type': 'application/xml; charset=utf-8' },
      })
      .catch((error: unknown) => {
        if (error instanceof RemoteError && error.status !== null && error.status >= 500) return null;
        throw error;
      });
    if (!answer) return null;
    if (answer.status === 401) throw this.failure(answer, 'the changes since the last sync');
    if (answer.status !== 207) return null;
    const root = parseXml(answer.text);
    const responses = multistatusOf(answer.text, this.url, this.url);
    const changes: CollectionChanges = {
      changed: new Map(),
      gone: new Set(),
      token: child(root ?? undefined, DAV, 'sync-token')?.text.trim() ?? '',
    };
    for (const response of responses) {
      if (response.href === this.path) continue;
      if (response.status === 404) changes.gone.add(response.href);
      else changes.changed.set(response.href, propText(response, DAV, 'getetag'));
    }
    return changes.token ? changes : null;
  }

  /**
   * Resources by href with their ETag and text; a resource the server could not give is its status instead. A
   * batch the server fails on (some servers answer 500 to a REPORT they cannot handle) is read one GET at a time,
   * so one resource it cannot serve fails alone.
   */
  private multigetFailed = false;

  async multiget(hrefs: readonly string[]): Promise<Map<string, Fetched>> {
    const found = new Map<string, Fetched>();
    for (let at = 0; at < hrefs.length; at += MULTIGET_BATCH) {
      const batch = hrefs.slice(at, at + MULTIGET_BATCH);
      const answered = this.multigetFailed
        ? null
        : await this.multigetBatch(batch).catch((error: unknown) => {
            if (error instanceof RemoteError && error.status !== null && error.status >= 500) {
              // Asked once: the next batches go by GET at once, without the retries' waits.
              this.multigetFailed = true;
              return null;
            }
            throw error;
          });
      if (answered) for (const [href, fetched] of answered) found.set(href, fetched);
      else for (const href of batch) found.set(href, await this.getOne(href));
    }
    return found;
  }

  private async multigetBatch(batch: readonly string[]): Promise<Map<string, Fetched>> {
    const body = buildXml(
      el(CALDAV, 'calendar-multiget', [
        el(DAV, 'prop', [el(DAV, 'getetag'), el(CALDAV, 'calendar-data')]),
        ...batch.map((href) => el(DAV, 'href', href)),
      ]),
    );
    const answer = await this.transport.request('REPORT', this.url, {
      body,
      headers: { Depth: '1', 'Content-Type': 'application/xml; charset=utf-8' },
    });
    if (answer.status !== 207) throw this.failure(answer, `reading ${batch.length} events`);
    const found = new Map<string, Fetched>();
    for (const response of multistatusOf(answer.text, this.url, this.url)) {
      const text = propText(response, CALDAV, 'calendar-data');
      found.set(
        response.href,
        text !== null && response.status === 200
          ? { etag: propText(response, DAV, 'getetag'), text }
          : { status: response.status === 200 ? 404 : response.status },
      );
    }
    return found;
  }

  /** One resource by GET, its failure as its status. */
  private async getOne(href: string): Promise<Fetched> {
    try {
      return (await this.get(href)) ?? { status: 404 };
    } catch (error) {
      if (error instanceof RemoteError && error.status !== null) return { status: error.status };
      throw error;
    }
  }

  async get(href: string): Promise<{ etag: string | null; text: string } | null> {
    const answer = await this.transport.request('GET', this.hrefUrl(href), {
      headers: { Accept: 'text/calendar' },
    });
    if (answer.status === 404 || answer.status === 410) return null;
    if (answer.status !== 200) throw this.failure(answer, `reading ${href}`);
    return { etag: answer.headers.get('etag'), text: answer.text };
  }

  /** The ETag of one resource (for servers that answer a PUT without one). */
  async etagOf(href: string): Promise<string | null> {
    const [response] = await this.propfind(this.hrefUrl(href), '0', [el(DAV, 'getetag')]);
    return propText(response, DAV, 'getetag');
  }

  /**
   * Writes a resource: `condition` an ETag (it must not have changed), `'new'` (it must not exist) or null (forced).
   * Returns its new ETag; a failed precondition is a {@link StaleResourceError}.
   */
  async put(href: string, text: string, condition: WriteCondition): Promise<string | null> {
    const headers: Record<string, string> = { 'Content-Type': 'text/calendar; charset=utf-8' };
    if (condition === 'new') headers['If-None-Match'] = '*';
    else if (condition) headers['If-Match'] = condition;
    const answer = await this.transport.request('PUT', this.hrefUrl(href), { body: text, headers });
    if (answer.status === 412) throw new StaleResourceError(href);
    if (answer.status === 507)
      throw new RemoteError(
        'REMOTE_HTTP_ERROR',
        `The calendar server ${new URL(this.url).host} has no room left for this account (HTTP 507, quota): ` +
          'free space there or ask for more, then sync again. The event is kept here.',
        507,
      );
    if (answer.status < 200 || answer.status >= 300) throw this.failure(answer, 'storing the event');
    return answer.headers.get('etag') ?? (await this.etagOf(href));
  }

  async delete(href: string, ifMatch: string | null): Promise<void> {
    const answer = await this.transport.request('DELETE', this.hrefUrl(href), {
      headers: ifMatch ? { 'If-Match': ifMatch } : {},
    });
    if (answer.status === 412) throw new StaleResourceError(href);
    if (answer.status === 404 || answer.status === 410) return;
    if (answer.status < 200 || answer.status >= 300) throw this.failure(answer, 'deleting the event');
  }
}
