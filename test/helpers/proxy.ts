import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the proxy saw: method, path with query, the body as text, and its Authorization header. */
export interface SeenRequest {
  method: string;
  url: string;
  body: string;
  authorization?: string;
}

/**
 * What to do with a request: `null` forwards it; `'drop'` forwards it, lets the site do the work, then cuts the
 * connection without an answer (a lost answer); a status answers it at once without forwarding.
 */
export type Verdict = 'drop' | { status: number; headers?: Record<string, string> } | null;

export interface Proxy {
  /** `http://127.0.0.1:PORT/wp-json/`: the REST root through the proxy. */
  root: string;
  seen: SeenRequest[];
  /** The most requests that were under way at the same time. */
  maxInFlight(): number;
  close(): Promise<void>;
}

/** A small HTTP proxy in front of a real site (`target` is its origin), seeing every request and its body. */
export async function startProxy(
  target: string,
  misbehave: (seen: SeenRequest) => Verdict = () => null,
  /** Changes the text of each answer forwarded (a hostile remote's answers); none: forwarded as they come. */
  rewriteAnswer?: (seen: SeenRequest, body: string) => string,
): Promise<Proxy> {
  const origin = new URL(target);
  const seen: SeenRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server: Server = createServer((incoming, outgoing) => {
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    outgoing.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const request_ = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        body: body.toString(),
        authorization: incoming.headers.authorization,
      };
      seen.push(request_);
      const verdict = misbehave(request_);
      if (verdict && verdict !== 'drop') {
        outgoing.writeHead(verdict.status, { 'Content-Type': 'application/json', ...verdict.headers });
        outgoing.end(
          JSON.stringify({ code: 'busy', message: 'Try later', data: { status: verdict.status } }),
        );
        return;
      }
      const forward = request(
        {
          host: origin.hostname,
          port: origin.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: origin.host },
        },
        (answer) => {
          if (verdict === 'drop') {
            answer.resume();
            answer.on('end', () => outgoing.socket?.destroy());
            return;
          }
          if (rewriteAnswer) {
            const parts: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => parts.push(chunk));
            answer.on('end', () => {
              const { 'content-length': _length, ...headers } = answer.headers;
              outgoing.writeHead(answer.statusCode ?? 502, headers);
              outgoing.end(rewriteAnswer(request_, Buffer.concat(parts).toString()));
            });
            return;
          }
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forward.on('error', () => outgoing.socket?.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    root: `http://127.0.0.1:${(server.address() as AddressInfo).port}/wp-json/`,
    seen,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
