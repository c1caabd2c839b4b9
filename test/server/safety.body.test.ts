import { deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, NS, type TestServer } from '../helpers/server';
import { expectError, rawRequest } from './safety.http';

/** CONTRACT §6 and REFERENCE §1.2: body size, JSON, form bodies and content types. */
let server: TestServer;
let port: number;
const MiB = 1024 * 1024;

beforeAll(async () => {
  server = await startTestServer();
  port = server.engine.port;
});
afterAll(() => server.close());

const post = (path: string, contentType: string | undefined, body: string | Buffer, extra = {}) =>
  rawRequest(port, {
    method: 'POST',
    path: `/${NS}/${path}`,
    headers: { ...server.admin, ...(contentType ? { 'Content-Type': contentType } : {}), ...extra },
    body,
  });

async function categoryNames(): Promise<string[]> {
  const list = await server.api('categories?hide_empty=false&per_page=50');
  return (list.body.categories as Array<{ name: string }>).map((term) => term.name);
}

/** A JSON object of about `size` bytes: a category name plus padding in an argument nobody declares. */
const paddedCategory = (name: string, size: number) => {
  const shell = JSON.stringify({ name, padding: '' });
  return Buffer.from(JSON.stringify({ name, padding: 'x'.repeat(size - shell.length) }));
};

describe('body size', () => {
  it('refuses a body over 1 MiB declared by Content-Length with 413, storing nothing', async () => {
    const body = paddedCategory('Too big', MiB + 1);
    const response = await post('categories', 'application/json', body);
    expectError(response, 413, 'rest_request_too_large');
    expect(await categoryNames()).not.toContain('Too big');
  });

  it('refuses a chunked body that grows over 1 MiB with 413, storing nothing', async () => {
    const body = paddedCategory('Too big chunked', MiB + 4096);
    const chunks = [body.subarray(0, 400_000), body.subarray(400_000, 800_000), body.subarray(800_000)];
    const response = await rawRequest(port, {
      method: 'POST',
      path: `/${NS}/categories`,
      headers: { ...server.admin, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      chunks,
    });
    expectError(response, 413, 'rest_request_too_large');
    expect(await categoryNames()).not.toContain('Too big chunked');
  });

  it('refuses an oversized form body too', async () => {
    const body = `name=Big+form&padding=${'x'.repeat(MiB)}`;
    const response = await post('categories', 'application/x-www-form-urlencoded', body);
    expectError(response, 413);
  });

  it('measures a compressed body by what it decodes to: 200 MiB in some 200 KiB is 413, never inflated whole', async () => {
    const bomb = paddedCategory('Bomb', 200 * MiB);
    for (const [coding, body] of [
      ['gzip', gzipSync(bomb)],
      ['deflate', deflateSync(bomb)],
    ] as const) {
      expect(body.length).toBeLessThan(MiB);
      const before = process.memoryUsage().rss;
      const response = await post('categories', 'application/json', body, { 'Content-Encoding': coding });
      expectError(response, 413, 'rest_request_too_large');
      // The server runs in this process: it read about 1 MiB of the 200, not all of it.
      expect(process.memoryUsage().rss - before, coding).toBeLessThan(100 * MiB);
    }
    expect(await categoryNames()).not.toContain('Bomb');
    // A small compressed body is read as any other.
    const small = await post('categories', 'application/json', gzipSync(paddedCategory('Zipped', 2048)), {
      'Content-Encoding': 'gzip',
    });
    expect(small.status).toBe(201);
    expect(small.json.name).toBe('Zipped');
  });

  it('accepts a body just under 1 MiB', async () => {
    const response = await post('categories', 'application/json', paddedCategory('Almost big', MiB - 1024));
    expect(response.status).toBe(201);
    expect(response.json.name).toBe('Almost big');
  });
});

describe('JSON bodies', () => {
  it.each([
    ['a truncated object', '{"name":'],
    ['a trailing comma', '{"name": "x",}'],
    ['single quotes', "{'name': 'x'}"],
    ['plain words', 'name=x'],
  ])('answers %s with 400 rest_invalid_json', async (_label, text) => {
    const response = await post('categories', 'application/json', text);
    expectError(response, 400, 'rest_invalid_json');
    expect(response.json.message).toBe('Invalid JSON body passed.');
  });

  it('treats malformed JSON as 400 before authorization (anonymous too)', async () => {
    const response = await rawRequest(port, {
      method: 'POST',
      path: `/${NS}/events`,
      headers: { 'Content-Type': 'application/json' },
      body: '{oops',
    });
    expectError(response, 400, 'rest_invalid_json');
  });

  it('accepts JSON with a charset parameter', async () => {
    const response = await post(
      'categories',
      'application/json; charset=utf-8',
      JSON.stringify({ name: 'Caffè' }),
    );
    expect(response.status).toBe(201);
    expect(response.json.name).toBe('Caffè');
  });

  it('reads a JSON null as "not sent" for required arguments', async () => {
    const response = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: { ...eventBody('x', 3), title: null },
    });
    expectError(response, 400, 'rest_missing_callback_param');
    expect(response.body.data.params).toEqual(['title']);
  });

  it('clears an optional field sent as null and keeps an absent one (true patch)', async () => {
    const created = await server.api('venues', {
      method: 'POST',
      auth: server.admin,
      json: { venue: 'Null Hall', city: 'Rome', phone: '555-1234' },
    });
    expect(created.status).toBe(201);
    const updated = await server.api(`venues/${created.body.id}`, {
      method: 'POST',
      auth: server.admin,
      json: { city: null },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.city ?? '').toBe('');
    expect(updated.body.phone).toBe('555-1234');
    const read = await server.api(`venues/${created.body.id}`);
    expect(read.body.city ?? '').toBe('');
    expect(read.body.phone).toBe('555-1234');
    expect(read.body.venue).toBe('Null Hall');
  });
});

describe('content types', () => {
  it.each([
    ['text/plain', 'text/plain', '{"name":"Plain"}'],
    [
      'multipart/form-data',
      'multipart/form-data; boundary=XyZ',
      '--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nMultipart\r\n--XyZ--\r\n',
    ],
    ['application/xml', 'application/xml', '<name>Xml</name>'],
    ['no Content-Type at all', undefined, '{"name":"Untyped"}'],
  ])('refuses %s with 415, storing nothing', async (_label, type, body) => {
    const response = await post('categories', type, body);
    expectError(response, 415, 'rest_unsupported_media_type');
    const names = await categoryNames();
    for (const name of ['Plain', 'Multipart', 'Xml', 'Untyped']) expect(names).not.toContain(name);
  });

  it('accepts form-encoded bodies, with PHP-style arrays', async () => {
    const day = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10);
    const form = new URLSearchParams();
    form.append('title', 'Form friends');
    form.append('start_date', `${day} 10:00:00`);
    form.append('end_date', `${day} 11:00:00`);
    form.append('categories[]', 'Formcat A');
    form.append('categories[]', 'Formcat B');
    form.append('featured', 'true');
    const response = await post('events', 'application/x-www-form-urlencoded', form.toString());
    expect(response.status).toBe(201);
    expect(response.json.title).toBe('Form friends');
    expect(response.json.featured).toBe(true);
    expect((response.json.categories as Array<{ name: string }>).map((term) => term.name).sort()).toEqual([
      'Formcat A',
      'Formcat B',
    ]);
  });

  it('accepts a comma list in a form body as well', async () => {
    const day = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10);
    const body = `title=Csv&start_date=${day}+10:00&end_date=${day}+11:00&tags=csv-one,csv-two`;
    const response = await post('events', 'application/x-www-form-urlencoded; charset=UTF-8', body);
    expect(response.status).toBe(201);
    expect((response.json.tags as Array<{ name: string }>).map((term) => term.name).sort()).toEqual([
      'csv-one',
      'csv-two',
    ]);
  });

  it('lets a body argument win over the same query argument (WordPress precedence)', async () => {
    const response = await rawRequest(port, {
      method: 'POST',
      path: `/${NS}/categories?name=FromQuery`,
      headers: { ...server.admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'FromBody' }),
    });
    expect(response.status).toBe(201);
    expect(response.json.name).toBe('FromBody');
  });
});
