import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the real site answered a request (fetched by the proxy, decompressed). */
export interface Upstream {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * How the proxy answers one request: write `response` as it likes, using `upstream(path)` to ask the real site
 * (the request's own path and query when none is given). {@link passOn} forwards an answer, changed or not.
 */
export type Hostility = (
  request: { method: string; url: string; headers: IncomingMessage['headers']; body: Buffer },
  response: ServerResponse,
  upstream: (path?: string) => Promise<Upstream>,
) => Promise<void>;

export interface HostileProxy {
  /** `http://127.0.0.1:PORT/wp-json/`: the REST root through the proxy. */
  root: string;
  /** The host and port, as errors name it. */
  host: string;
  /** Every request seen, `METHOD path?query`, in order. */
  seen: string[];
  close(): Promise<void>;
}

/** A real HTTP server in front of a real site (`target`: its origin) that answers as `hostility` says. */
export async function startHostileProxy(target: string, hostility: Hostility): Promise<HostileProxy> {
  const seen: string[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const method = incoming.method ?? 'GET';
      const url = incoming.url ?? '/';
      seen.push(`${method} ${url}`);
      const body = Buffer.concat(chunks);
      const upstream = async (path = url): Promise<Upstream> => {
        const headers = Object.fromEntries(
          Object.entries(incoming.headers)
            .filter(([name]) => !['host', 'connection', 'content-length', 'accept-encoding'].includes(name))
            .map(([name, value]) => [name, String(value)]),
        );
        const answer = await fetch(`${target}${path}`, {
          method,
          headers,
          body: ['GET', 'HEAD'].includes(method) ? undefined : body,
        });
        const kept = Object.fromEntries(
          [...answer.headers].filter(
            ([name]) =>
              !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name),
          ),
        );
        return { status: answer.status, headers: kept, body: Buffer.from(await answer.arrayBuffer()) };
      };
      hostility({ method, url, headers: incoming.headers, body }, outgoing, upstream).catch(() =>
        outgoing.socket?.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    root: `http://${host}/wp-json/`,
    host,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends an answer of the real site on, its headers changed by `headers` (a null value removes one). */
export function passOn(
  response: ServerResponse,
  answer: Upstream,
  headers: Record<string, string | null> = {},
  body: Buffer = answer.body,
): void {
  const merged: Record<string, string> = { ...answer.headers };
  for (const [name, value] of Object.entries(headers)) {
    delete merged[name.toLowerCase()];
    if (value !== null) merged[name.toLowerCase()] = value;
  }
  response.writeHead(answer.status, { ...merged, 'content-length': String(body.length) });
  response.end(body);
}

/**
 * Streams `prefix` then spaces until `bytes` in all have been sent or the client hung up, never holding more
 * than one 64 KiB chunk (waiting for the socket to drain). Resolves with the bytes the socket took.
 */
export async function streamInflated(
  response: ServerResponse,
  prefix: string,
  bytes: number,
): Promise<number> {
  response.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, ' ');
  let sent = Buffer.byteLength(prefix);
  response.write(prefix);
  let closed = false;
  response.on('close', () => (closed = true));
  while (sent < bytes && !closed) {
    sent += chunk.length;
    if (!response.write(chunk))
      await new Promise<void>((resolve) => {
        response.once('drain', resolve);
        response.once('close', resolve);
      });
  }
  if (!closed) response.end();
  return sent;
}

/** Sends `prefix`, then one space every `everyMs` until the client hangs up: an answer that never ends. */
export function drip(response: ServerResponse, prefix: string, everyMs: number): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write(prefix);
  const timer = setInterval(() => response.write(' '), everyMs);
  response.on('close', () => clearInterval(timer));
}
