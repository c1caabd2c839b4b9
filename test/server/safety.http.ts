import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { expect } from 'vitest';

/** Raw HTTP for what `fetch` cannot do: a chosen or missing `Host`, huge or chunked bodies, any type. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- asserted field by field
  json: any;
}

export interface RawOptions {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Sent with `Transfer-Encoding: chunked`, one write per chunk. */
  chunks?: Buffer[];
  /** false: no `Host` header at all. */
  setHost?: boolean;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

export function rawRequest(port: number, options: RawOptions): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: {
          // Node sends no length for a DELETE body by itself: say it, as every real client does.
          ...(options.body !== undefined
            ? { 'Content-Length': String(Buffer.byteLength(options.body)) }
            : {}),
          ...options.headers,
        },
        setHost: options.setHost ?? true,
        agent: false,
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => parts.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parseJson(text) });
        });
        res.on('error', reject);
      },
    );
    // The server may answer (413) before it has read everything: a reset after the answer is fine.
    req.on('error', reject);
    if (options.chunks) {
      for (const chunk of options.chunks) req.write(chunk);
      req.end();
    } else req.end(options.body);
  });
}

/** Sends bytes as they are over a socket (e.g. HTTP/1.0 without `Host`) and parses the answer. */
export function rawSocket(port: number, message: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(message));
    const parts: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => parts.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(parts).toString('utf8');
      const [head, ...rest] = all.split('\r\n\r\n');
      const [statusLine, ...headerLines] = head.split('\r\n');
      const headers: IncomingHttpHeaders = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const text = rest.join('\r\n\r\n');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, text, json: parseJson(text) });
    });
  });
}

/** Asserts WordPress' error shape `{code, message, data: {status}}` with the HTTP status inside. */
export function expectError(
  response: { status: number; json?: unknown; body?: unknown },
  status: number,
  code?: string,
): void {
  const body = (response.json ?? response.body) as {
    code?: unknown;
    message?: unknown;
    data?: { status?: unknown };
  };
  expect(response.status).toBe(status);
  expect(body, 'error body').toBeTypeOf('object');
  expect(typeof body.code).toBe('string');
  expect(typeof body.message).toBe('string');
  expect((body.message as string).length).toBeGreaterThan(0);
  expect(body.data?.status).toBe(status);
  if (code !== undefined) expect(body.code).toBe(code);
}
