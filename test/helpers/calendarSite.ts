import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** How the site answers one path; changed between refreshes by the test. */
export interface SiteAnswer {
  body?: string;
  status?: number;
  contentType?: string;
  /** Send an ETag (a hash of the body) and answer 304 to a request that names it. */
  etag?: boolean;
  /** Send a Last-Modified and answer 304 to an If-Modified-Since that is not older. */
  lastModified?: string;
  gzip?: boolean;
  /** Wait this long before answering (a slow site). */
  delayMs?: number;
  /** Answer 302 to this path (relative to the site). */
  redirectTo?: string;
}

export interface SeenRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** What the site answered. */
  status: number;
}

/** A real HTTP server on a free loopback port that serves calendars (or not) as a test tells it. */
export interface CalendarSite {
  origin: string;
  requests: SeenRequest[];
  serve(path: string, answer: SiteAnswer): void;
  close(): Promise<void>;
}

const etagOf = (body: string) => `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;

export async function startCalendarSite(): Promise<CalendarSite> {
  const answers = new Map<string, SiteAnswer>();
  const requests: SeenRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    const answer = answers.get(path) ?? { status: 404, body: 'Not Found', contentType: 'text/plain' };
    const send = () =>
      answerWith(response, answer, request.headers, (status) =>
        requests.push({ path, headers: request.headers, status }),
      );
    if (!answer.delayMs) return send();
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!response.destroyed) send();
    }, answer.delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    serve: (path, answer) => answers.set(path, answer),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function answerWith(
  response: ServerResponse,
  answer: SiteAnswer,
  headers: IncomingHttpHeaders,
  seen: (status: number) => void,
): void {
  if (answer.redirectTo) {
    seen(302);
    response.writeHead(302, { Location: answer.redirectTo }).end();
    return;
  }
  const body = answer.body ?? '';
  const tag = answer.etag ? etagOf(body) : undefined;
  const fresh =
    (tag !== undefined && headers['if-none-match'] === tag) ||
    (answer.lastModified !== undefined &&
      headers['if-modified-since'] !== undefined &&
      Date.parse(headers['if-modified-since']) >= Date.parse(answer.lastModified));
  const common = {
    ...(tag ? { ETag: tag } : {}),
    ...(answer.lastModified ? { 'Last-Modified': answer.lastModified } : {}),
  };
  if (fresh) {
    seen(304);
    response.writeHead(304, common).end();
    return;
  }
  const status = answer.status ?? 200;
  const content = answer.gzip ? gzipSync(body) : Buffer.from(body);
  seen(status);
  response
    .writeHead(status, {
      ...common,
      'Content-Type': answer.contentType ?? 'text/calendar; charset=utf-8',
      'Content-Length': String(content.length),
      ...(answer.gzip ? { 'Content-Encoding': 'gzip' } : {}),
    })
    .end(content);
}

/** Where the site serves the calendar: a Google-style secret address (the secret is in the path). */
export const SECRET = 'private-5f3c9a0e7d1b4c2a8e6f0d9b3a7c5e1f';
export const SECRET_PATH = `/calendar/ical/choir%40example.org/${SECRET}/basic.ics`;

export interface CalendarParts {
  bakeTitle?: string;
  withConcert?: boolean;
  /** A further date removed from the weekly rehearsals (EXDATE). */
  removedRehearsal?: string;
}

const VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Rome',
  'X-LIC-LOCATION:Europe/Rome',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

/** A calendar as Google Calendar writes its secret address: its name, zone, a series with a changed date… */
export function googleCalendar(parts: CalendarParts = {}): string {
  const { bakeTitle = 'Bake sale', withConcert = true, removedRehearsal } = parts;
  return [
    'BEGIN:VCALENDAR',
    'PRODID:-//Google Inc//Google Calendar 70.9054//EN',
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'X-WR-CALNAME:St Cecilia Choir',
    'X-WR-TIMEZONE:Europe/Rome',
    ...VTIMEZONE,
    'BEGIN:VEVENT',
    'DTSTART;TZID=Europe/Rome:20270105T193000',
    'DTEND;TZID=Europe/Rome:20270105T213000',
    'RRULE:FREQ=WEEKLY;WKST=MO;UNTIL=20270302T183000Z;BYDAY=TU',
    'EXDATE;TZID=Europe/Rome:20270119T193000',
    'EXDATE;TZID=Europe/Rome:20270209T193000',
    ...(removedRehearsal ? [`EXDATE;TZID=Europe/Rome:${removedRehearsal}`] : []),
    'DTSTAMP:20261120T090000Z',
    'UID:7kq2s9d0vq3mhq2p8b1v6u6f0c@google.com',
    'SEQUENCE:1',
    'STATUS:CONFIRMED',
    'SUMMARY:Choir rehearsal',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'DTSTART;TZID=Europe/Rome:20270126T200000',
    'DTEND;TZID=Europe/Rome:20270126T223000',
    'DTSTAMP:20261120T090000Z',
    'UID:7kq2s9d0vq3mhq2p8b1v6u6f0c@google.com',
    'RECURRENCE-ID;TZID=Europe/Rome:20270126T193000',
    'SEQUENCE:2',
    'SUMMARY:Choir rehearsal (dress rehearsal)',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'DTSTART;VALUE=DATE:20270410',
    'DTEND;VALUE=DATE:20270412',
    'DTSTAMP:20261120T090000Z',
    'UID:festival-2027@google.com',
    'SUMMARY:Spring festival\\, two days',
    'DESCRIPTION:Bring music stands\\; chairs are provided.\\nDoors open at 9\\, ',
    ' concert at 11.',
    'END:VEVENT',
    ...(withConcert
      ? [
          'BEGIN:VEVENT',
          'DTSTART;TZID=Europe/Rome:20270320T180000',
          'DTEND;TZID=Europe/Rome:20270320T200000',
          'DTSTAMP:20261120T090000Z',
          'UID:concert-lent@google.com',
          'SUMMARY:Lent concert',
          'END:VEVENT',
        ]
      : []),
    'BEGIN:VEVENT',
    'DTSTART;TZID=Europe/Rome:20270213T100000',
    'DTEND;TZID=Europe/Rome:20270213T130000',
    'DTSTAMP:20261120T090000Z',
    'UID:bake-sale@google.com',
    `SUMMARY:${bakeTitle}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}
