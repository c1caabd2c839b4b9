/**
 * Fetching an iCalendar address (a Google Calendar secret address, another site's feed) for an import
 * address: http, https, webcal (https) and webcals only; a time limit, a size limit, at most a few redirects,
 * a conditional request with what the last answer said (304: nothing changed), and the content checked to be
 * a calendar. Every failure is a {@link CalendarFetchError} whose message says what happened and what to do,
 * and names the address only masked (see {@link maskedAddress}): a secret address is a password.
 */
import { networkFailure } from '../sync/remoteTransport';
import { BodyReadError, readBoundedBody, sizeText } from '../sync/boundedBody';
import { IMPORT_ADDRESS_SCHEMES } from '../../shared/schemas/importSources';

/** How long a fetch may take in all (redirects and reading included), unless told otherwise. */
export const FETCH_TIMEOUT_MS = 30_000;
/** The largest calendar read (decompressed): a calendar of years of events is a few MiB. */
export const FETCH_MAX_BYTES = 20 * 1024 * 1024;
/** Redirects followed before giving up (a loop, or a site sending us round in circles). */
export const FETCH_MAX_REDIRECTS = 5;

export interface FetchLimits {
  timeoutMs?: number;
  maxBytes?: number;
}

/** What the last successful fetch said of its content, sent back so that an unchanged calendar costs nothing. */
export interface FetchValidators {
  etag: string | null;
  lastModified: string | null;
}

export type CalendarFetch = { changed: false } | ({ changed: true; text: string } & FetchValidators);

export type CalendarFetchCode =
  | 'source_unreachable'
  | 'source_timeout'
  | 'source_refused'
  | 'source_missing'
  | 'source_http_error'
  | 'source_too_many_redirects'
  | 'source_not_calendar'
  | 'source_too_large';

/** An address that did not give a calendar: nothing was imported. */
export class CalendarFetchError extends Error {
  constructor(
    readonly code: CalendarFetchCode,
    message: string,
    /** The HTTP status the site answered, when it answered. */
    readonly status: number | null = null,
    /** For a failed connection, its kind (`ENOTFOUND`, `ECONNREFUSED`, `TIMEOUT`…), for a screen to word. */
    readonly network: string | null = null,
  ) {
    super(message);
  }
}

/**
 * The address as it can be shown anywhere (lists, errors, logs): scheme and host only, the path and query cut
 * (`https://calendar.google.com/…`), since a secret address carries its secret there.
 */
export function maskedAddress(address: string): string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return '(not an address)';
  }
  const rest = url.pathname.replace(/^\/$/, '') + url.search + url.hash;
  return `${url.protocol}//${url.host}/${rest ? '…' : ''}`;
}

/** The address to request: webcal(s) as https, whitespace around it trimmed. */
export function requestUrl(address: string): URL {
  // (Not `url.protocol = 'https:'`: URL refuses to turn a webcal: address into an https: one that way.)
  const url = new URL(address.trim());
  return new URL(
    `${IMPORT_ADDRESS_SCHEMES[url.protocol] ?? url.protocol}${url.href.slice(url.protocol.length)}`,
  );
}

const isRedirect = (status: number) => [301, 302, 303, 307, 308].includes(status);

/**
 * Fetches the calendar at `address`. `validators` (from the last fetch) make the request conditional: an
 * unchanged calendar answers 304, returned as `{ changed: false }`.
 */
export async function fetchCalendar(
  address: string,
  validators: FetchValidators | null,
  limits: FetchLimits = {},
): Promise<CalendarFetch> {
  const shown = maskedAddress(address);
  const timeoutMs = limits.timeoutMs ?? FETCH_TIMEOUT_MS;
  const maxBytes = limits.maxBytes ?? FETCH_MAX_BYTES;
  // One clock for the whole exchange: redirects and a slow body count against the same limit.
  const signal = AbortSignal.timeout(timeoutMs);
  const tooSlow = () =>
    new CalendarFetchError(
      'source_timeout',
      `${shown} did not send the calendar within ${Math.round(timeoutMs / 1000)} seconds. ` +
        'The site may be busy: try again later. If it keeps happening, check the address in a web browser.',
    );
  let url = requestUrl(address);
  for (let redirects = 0; ; redirects++) {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: {
          Accept: 'text/calendar, text/plain;q=0.8, */*;q=0.5',
          'User-Agent': 'CalendarDesk (import from an address)',
          ...(validators?.etag ? { 'If-None-Match': validators.etag } : {}),
          ...(validators?.lastModified ? { 'If-Modified-Since': validators.lastModified } : {}),
        },
        redirect: 'manual',
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw tooSlow();
      const failure = networkFailure(error);
      throw new CalendarFetchError(
        'source_unreachable',
        `Could not reach ${shown}: ${failure.words}`,
        null,
        failure.code,
      );
    }
    if (isRedirect(response.status)) {
      await response.body?.cancel().catch(() => undefined);
      const location = response.headers.get('location');
      const next = location ? safeUrl(location, url) : null;
      if (!next || !['http:', 'https:'].includes(next.protocol))
        throw new CalendarFetchError(
          'source_http_error',
          `${shown} sent Calendar Desk on to ${next ? `a ${next.protocol}// address` : 'no address'} instead of the calendar. Open the address in a web browser to see where it leads, and give that calendar address instead.`,
          response.status,
        );
      if (redirects >= FETCH_MAX_REDIRECTS)
        throw new CalendarFetchError(
          'source_too_many_redirects',
          `${shown} sent Calendar Desk from one address to another more than ${FETCH_MAX_REDIRECTS} times without giving the calendar. Open it in a web browser and give the address where the calendar really is.`,
          response.status,
        );
      url = next;
      continue;
    }
    if (response.status === 304 && validators) {
      await response.body?.cancel().catch(() => undefined);
      return { changed: false };
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw statusError(shown, response.status);
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8').decode(await readBoundedBody(response, { maxBytes, signal }));
    } catch (error) {
      if (error instanceof BodyReadError && error.reason === 'too_large') throw tooLarge(shown, maxBytes);
      if (signal.aborted) throw tooSlow();
      throw new CalendarFetchError(
        'source_unreachable',
        `The connection to ${shown} broke while the calendar was being read. Try again.`,
      );
    }
    const start = text.replace(/^\uFEFF/, '').trimStart();
    if (!start.toUpperCase().startsWith('BEGIN:VCALENDAR'))
      throw new CalendarFetchError(
        'source_not_calendar',
        `${shown} answered with ${/^</.test(start) ? 'a web page' : 'something'} instead of a calendar (an iCalendar file starts with BEGIN:VCALENDAR). ` +
          'Give the address the calendar offers for subscribing: in Google Calendar, Settings → the calendar → "Secret address in iCal format"; on a website, its "iCal" or "Subscribe" link.',
        response.status,
      );
    return {
      changed: true,
      text,
      etag: response.headers.get('etag'),
      lastModified: response.headers.get('last-modified'),
    };
  }
}

function safeUrl(location: string, base: URL): URL | null {
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

function tooLarge(shown: string, maxBytes: number): CalendarFetchError {
  return new CalendarFetchError(
    'source_too_large',
    `The calendar at ${shown} is larger than the ${sizeText(maxBytes)} Calendar Desk reads from an address. ` +
      'Ask its owner for a feed of the coming events only, or export the calendar to a file and import it in parts.',
  );
}

function statusError(shown: string, status: number): CalendarFetchError {
  if (status === 404 || status === 410)
    return new CalendarFetchError(
      'source_missing',
      `${shown} answered "not found" (HTTP ${status}): the calendar is not at this address (any more). ` +
        'Check the address; a secret address that was reset in Google Calendar stops working, so copy the new one.',
      status,
    );
  if (status === 401 || status === 403)
    return new CalendarFetchError(
      'source_refused',
      `${shown} refused to give the calendar (HTTP ${status}): it is private. ` +
        'Use the address meant for subscribing (in Google Calendar, the "secret address in iCal format", not the public one of a private calendar).',
      status,
    );
  return new CalendarFetchError(
    'source_http_error',
    status >= 500
      ? `${shown} has a problem of its own (HTTP ${status}): try again later.`
      : `${shown} answered HTTP ${status} instead of the calendar. Check the address in a web browser.`,
    status,
  );
}
