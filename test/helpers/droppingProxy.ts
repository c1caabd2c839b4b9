import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What a proxy does with one request: `'drop'` forwards it, lets the remote do the work, then cuts the connection
 * without an answer (a lost answer); a status answers that itself; null forwards it as is.
 */
export type ProxyVerdict = 'drop' | { status: number; headers?: Record<string, string> } | null;

export interface Proxy {
  /** The proxy's REST root (`http://127.0.0.1:PORT/wp-json/`). */
  root: string;
  close(): Promise<void>;
}

/**
 * A proxy in front of a real remote (`target`: its origin). `misbehave` sees each request; `before` runs before a
 * request is forwarded (to change the remote behind the sync's back).
 */
export async function startProxy(
  target: string,
  misbehave: (method: string, url: string) => ProxyVerdict,
  before?: (method: string, url: string) => Promise<void>,
): Promise<Proxy> {
  const origin = new URL(target);
  const server: Server = createServer((incoming, outgoing) => {
    const verdict = misbehave(incoming.method ?? 'GET', incoming.url ?? '/');
    if (verdict && verdict !== 'drop') {
      outgoing.writeHead(verdict.status, { 'Content-Type': 'application/json', ...verdict.headers });
      outgoing.end(JSON.stringify({ code: 'busy', message: 'Try later', data: { status: verdict.status } }));
      return;
    }
    const forward = () =>
      request(
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
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
    void (before?.(incoming.method ?? 'GET', incoming.url ?? '/') ?? Promise.resolve()).then(() =>
      incoming.pipe(forward()),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    root: `http://127.0.0.1:${(server.address() as AddressInfo).port}/wp-json/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
