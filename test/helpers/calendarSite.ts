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
