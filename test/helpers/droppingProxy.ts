import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What a proxy does with one request: `'drop'` forwards it, lets the remote do the work, then cuts the connection
 * without an answer (a lost answer); a status answers that itself, without forwarding, or with `afterForwarding`
 * once the remote has done the work (a gateway that lost the site as it answered); null forwards it as is.
 */
export type ProxyVerdict =
  'drop' | { status: number; headers?: Record<string, string>; afterForwarding?: boolean } | null;

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
    const answerItself = (status: number, headers?: Record<string, string>) => {
      outgoing.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      outgoing.end(JSON.stringify({ code: 'busy', message: 'Try later', data: { status } }));
    };
    if (verdict && verdict !== 'drop' && !verdict.afterForwarding) {
      answerItself(verdict.status, verdict.headers);
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
          if (verdict) {
            answer.resume();
            answer.on('end', () => answerItself(verdict.status, verdict.headers));
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

/**
 * A site that goes down with 4 creates in flight (`isCreate` tells them), in the order they reach it: the 1st
 * answered, the 2nd stored but answered 502, the 3rd stored but its answer lost, the 4th refused with 502 before
 * anything was stored. The first 3 wait for the 4th, so all 4 are in flight together. From the 4th on, every
 * request gets 502 until `up()`. `misbehave` and `before` go to {@link startProxy}.
 */
export function outageWithCreatesInFlight(isCreate: (method: string, url: string) => boolean) {
  let creates = 0;
  let down = false;
  let allSent!: () => void;
  const fourInFlight = new Promise<void>((resolve) => (allSent = resolve));
  return {
    misbehave(method: string, url: string): ProxyVerdict {
      if (down) return { status: 502 };
      if (!isCreate(method, url)) return null;
      const arrival = ++creates;
      if (arrival === 2) return { status: 502, afterForwarding: true };
      if (arrival === 3) return 'drop';
      if (arrival === 4) {
        down = true;
        allSent();
        return { status: 502 };
      }
      return null;
    },
    before: (method: string, url: string) => (isCreate(method, url) ? fourInFlight : Promise.resolve()),
    up() {
      down = false;
    },
  };
}
