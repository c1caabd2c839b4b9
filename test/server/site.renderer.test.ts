import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let rendererDir: string;

beforeAll(async () => {
  rendererDir = await mkdtemp(join(tmpdir(), 'renderer-'));
  await mkdir(join(rendererDir, 'assets'));
  await writeFile(
    join(rendererDir, 'index.html'),
    '<!doctype html><title>Calendar Desk UI</title><script type="module" src="/assets/index.js"></script>',
  );
  await writeFile(join(rendererDir, 'assets', 'index.js'), 'console.log("ui")');
  // What the build writes next to every script (electron.vite.config.ts, precompress).
  // Big enough that the answer is still streaming when a client goes away.
  await writeFile(join(rendererDir, 'assets', 'big.js'), `// ${'x'.repeat(8 * 1024 * 1024)}`);
  await writeFile(join(rendererDir, 'assets', 'index.js.br'), brotliCompressSync('console.log("ui")'));
  server = await startTestServer({ rendererDir });
});
afterAll(async () => {
  await server.close();
  await rm(rendererDir, { recursive: true, force: true });
});

const headersOf = async (url: string) => {
  const response = await fetch(url);
  await response.arrayBuffer();
  return { status: response.status, headers: response.headers };
};

describe('the web UI served over HTTP (calendar-desk serve)', () => {
  it('sends the page and its scripts with a CSP that allows only the app itself to run and to call the API', async () => {
    for (const path of ['/', '/index.html', '/assets/index.js']) {
      const { status, headers } = await headersOf(`${server.engine.origin}${path}`);
      expect(status, path).toBe(200);
      const csp = headers.get('content-security-policy') ?? '';
      expect(csp, path).toBe(
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
          "img-src 'self' http: https: data: blob:; font-src 'self' data:; connect-src 'self'; " +
          "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
      );
      expect(headers.get('x-content-type-options'), path).toBe('nosniff');
      // No other page may frame the app (clickjacking its buttons): frame-ancestors above, and for old browsers:
      expect(headers.get('x-frame-options'), path).toBe('DENY');
      // The browser sign-in link carries the token in the fragment: no Referer may ever leave the app.
      expect(headers.get('referrer-policy'), path).toBe('no-referrer');
    }
  });

  it('leaves the API and the not-found page with their own headers', async () => {
    const api = await headersOf(`${server.base}events`);
    expect(api.status).toBe(200);
    expect(api.headers.get('content-security-policy') ?? '').not.toContain("script-src 'self'");
    const missing = await headersOf(`${server.engine.origin}/assets/missing.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('sends the precompressed copy to browsers that accept it, and keeps hashed files cached for a year', async () => {
    // fetch() hides Content-Encoding handling, so ask with a plain request as a browser does.
    const raw = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((done, fail) => {
      const url = new URL(`${server.engine.origin}/assets/index.js`);
      request(url, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
        .on('error', fail)
        .end();
    });
    expect(raw.headers['content-encoding']).toBe('br');
    expect(raw.headers['content-type']).toMatch(/javascript/);
    expect(raw.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(brotliDecompressSync(raw.body).toString()).toBe('console.log("ui")');
    expect(raw.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The page itself names the current hashed files: it is revalidated on every load.
    const page = await headersOf(`${server.engine.origin}/`);
    expect(page.headers.get('cache-control')).toBe('no-cache');
  });

  it('says nothing when a browser stops downloading a file halfway (a closed tab is not a server fault)', async () => {
    const printed = vi.spyOn(console, 'error');
    try {
      await new Promise<void>((done, fail) => {
        const url = new URL(`${server.engine.origin}/assets/big.js`);
        const outgoing = request(url, (response) => {
          response.once('data', () => {
            response.destroy();
            outgoing.destroy();
            done();
          });
        });
        outgoing.on('error', (error) => (error.message.includes('aborted') ? done() : fail(error)));
        outgoing.end();
      });
      // Let the server notice the closed socket.
      await new Promise((settle) => setTimeout(settle, 300));
      // What Koa printed before: "Error: Premature close" (code ERR_STREAM_PREMATURE_CLOSE) or a reset.
      const output = printed.mock.calls.map((call) => call.map(String).join(' ')).join('\n');
      expect(output).not.toMatch(/Premature close|ECONNRESET|EPIPE/);
      // The server still answers.
      expect((await headersOf(`${server.engine.origin}/`)).status).toBe(200);
    } finally {
      printed.mockRestore();
    }
  });
});

/** The REST root a page names in its `Link: <…>; rel="https://api.w.org/"` header (WordPress discovery). */
function apiRootOf(headers: Headers): string | undefined {
  const link = headers.get('link') ?? '';
  return /<([^>]+)>;\s*rel="https:\/\/api\.w\.org\/"/.exec(link)?.[1];
}

describe('discovery from the site address, as WordPress clients do it (WPAPI.discover)', () => {
  it('names the REST root on the home page and on record pages; following it reaches the index', async () => {
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: { title: 'Discoverable', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00' },
    });
    expect(created.status).toBe(201);
    for (const [url, method] of [
      [`${server.engine.origin}/`, 'HEAD'],
      [`${server.engine.origin}/`, 'GET'],
      [created.body.url, 'GET'],
    ] as const) {
      const page = await fetch(url, { method });
      await page.arrayBuffer();
      expect(page.status, url).toBe(200);
      const root = apiRootOf(page.headers);
      expect(root, `${method} ${url}`).toBe(`${server.engine.origin}/wp-json/`);
      const index = await fetch(root!);
      expect(index.status).toBe(200);
      const body = (await index.json()) as { namespaces: string[]; routes: Record<string, unknown> };
      expect(body.namespaces).toContain('cal/events/v1');
      expect(body.routes).toHaveProperty('/cal/events/v1/events');
    }
  });
});
