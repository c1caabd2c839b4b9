import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
