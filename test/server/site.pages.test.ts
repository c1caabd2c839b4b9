import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let rendererDir: string;

beforeAll(async () => {
  rendererDir = await mkdtemp(join(tmpdir(), 'renderer-'));
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Calendar Desk UI</title>');
  server = await startTestServer({ rendererDir });
});
afterAll(async () => {
  await server.close();
  await rm(rendererDir, { recursive: true, force: true });
});

const page = async (url: string) => {
  const response = await fetch(url);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    csp: response.headers.get('content-security-policy'),
    text: await response.text(),
  };
};

describe('public record pages (the `url` of a record)', () => {
  it('serves a readable page for a published event, escaping plain text and keeping sanitized HTML', async () => {
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Tom & Jerry "live" 5 > 4', 5, {
        description: '<p>Bring <strong>friends</strong><script>alert(1)</script></p>',
        venue: { venue: 'Teatro "Verdi"', city: 'Pisa' },
      }),
    });
    expect(created.status).toBe(201);
    const result = await page(created.body.url);
    expect(result.status).toBe(200);
    expect(result.type).toMatch(/^text\/html/);
    expect(result.csp).toContain("default-src 'none'");
    expect(result.text).toContain('<h1>Tom &amp; Jerry &quot;live&quot; 5 &gt; 4</h1>');
    expect(result.text).toContain('<p>Bring <strong>friends</strong></p>');
    expect(result.text).not.toContain('<script>');
    expect(result.text).toContain('Teatro &quot;Verdi&quot;');

    const venuePage = await page(created.body.venue.url);
    expect(venuePage.status).toBe(200);
    expect(venuePage.text).toContain('Pisa');

    // A title holding an entity (as WordPress sends them) shows the character, not the entity's text.
    const rock = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Rock &#038; Roll', 6),
    });
    const rockPage = await page(rock.body.url);
    expect(rockPage.text).toContain('<h1>Rock &amp; Roll</h1>');
    expect(rockPage.text).toContain('<title>Rock &amp; Roll</title>');
  });

  it('serves the page a tag `url` points to, with its published events', async () => {
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Tagged gig', 5, { tags: ['Late Night'] }),
    });
    const tag = await server.api(`tags/${created.body.tags[0].id}`);
    expect(tag.body.url).toBe(`${server.engine.origin}/tag/late-night/`);
    const result = await page(tag.body.url);
    expect(result.status).toBe(200);
    expect(result.text).toContain('<h1>Late Night</h1>');
    expect(result.text).toContain('Tagged gig');
  });

  it('shows nothing for drafts, password-protected and trashed events', async () => {
    const draft = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Secret draft', 5, { status: 'draft' }),
    });
    const locked = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Locked', 5, { post_password: 'pw' }),
    });
    const trashed = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Gone soon', 5),
    });
    const trashedUrl = trashed.body.url;
    await server.api(`events/${trashed.body.id}`, { method: 'DELETE', auth: server.admin });
    const base = server.engine.origin;
    for (const url of [`${base}/event/${draft.body.slug}/`, locked.body.url, trashedUrl]) {
      const result = await page(url);
      expect(result.status).toBe(404);
      expect(result.text).not.toMatch(/Secret draft|Locked|Gone soon/);
    }
  });

  it('refuses to be framed by another page (clickjacking): record pages, the 404 page and the web UI', async () => {
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Framed?', 5, {
        venue: { venue: 'Frame Hall', city: 'Pisa' },
        organizer: { organizer: 'Frame Club' },
        tags: ['Frames'],
      }),
    });
    expect(created.status).toBe(201);
    const urls = [
      created.body.url,
      created.body.venue.url,
      created.body.organizer[0].url,
      `${server.engine.origin}/tag/frames/`,
      `${server.engine.origin}/no/such/page`,
      `${server.engine.origin}/`,
    ];
    for (const url of urls) {
      const response = await fetch(url);
      await response.arrayBuffer();
      expect(response.headers.get('content-type'), url).toMatch(/^text\/html/);
      expect(response.headers.get('content-security-policy'), url).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options'), url).toBe('DENY');
    }
  });

  it('serves the web UI at / and a 404 page elsewhere', async () => {
    const ui = await page(`${server.engine.origin}/`);
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('Calendar Desk UI');
    const missing = await page(`${server.engine.origin}/no/such/page`);
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('/wp-json/');
  });
});
