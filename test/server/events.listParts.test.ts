import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, NS, type TestServer } from '../helpers/server';
import { PNG } from '../helpers/fixtures';

/**
 * A list assembles each event from JSON kept per record (its own keys, each embedded term, venue and
 * organizer: present/eventListJson.ts). These pin that what it sends is what presenting the event anew would
 * send, after every kind of change a kept part depends on, and that answers differing per caller or per
 * address are never shared.
 */
let server: TestServer;
let venueId: number;
let organizerId: number;
let categoryId: number;
let eventId: number;
const settingsUrl = () => `${server.engine.apiRoot}calendar-desk/v1/settings`;

const DAY = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
const window = `start_date=${DAY}&end_date=${DAY}`;

async function write(path: string, json: Record<string, unknown>, method = 'POST') {
  const answer = await server.api(path, { method, auth: server.admin, json });
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body;
}

/** The list of the test day as anyone sees it (or as `auth` does, at `root`), by event id. */
async function listed(query = '', options: { auth?: Record<string, string>; root?: string } = {}) {
  const answer = await server.api(`${options.root ?? server.base}events?per_page=50&${window}${query}`, {
    auth: options.auth,
  });
  expect(answer.status).toBe(200);
  return new Map<number, Record<string, unknown>>(
    answer.body.events.map((event: { id: number }) => [event.id, event]),
  );
}

/** A single read without its JSON-LD (a list carries none): what the list must show, key for key. */
function withoutJsonLd(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutJsonLd);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'json_ld')
      .map(([key, inner]) => [key, withoutJsonLd(inner)]),
  );
}

async function expectListedAsRead(id: number) {
  const single = await server.api(`events/${id}`);
  expect(single.status).toBe(200);
  // Compared as text: the order of the keys is part of the answer.
  expect(JSON.stringify((await listed()).get(id))).toBe(JSON.stringify(withoutJsonLd(single.body)));
}

beforeAll(async () => {
  server = await startTestServer();
  venueId = (await write('venues', { venue: 'Teatro Uno', city: 'Milano', address: 'Via Roma 1' })).id;
  organizerId = (await write('organizers', { organizer: 'Anna Rossi', email: 'anna@example.org' })).id;
  categoryId = (await write('categories', { name: 'Jazz', description: 'Late sets.' })).id;
  eventId = (
    await write(
      'events',
      eventBody('Jazz Night', 5, {
        venue: venueId,
        organizer: [organizerId],
        categories: [categoryId],
        tags: ['late', 'Free entry'],
        cost: '15',
      }),
    )
  ).id;
  await write('events', eventBody('Bare Reading', 5));
});
afterAll(() => server.close());

describe('a listed event', () => {
  it('is byte for byte the event as a single read shows it, with and without linked records', async () => {
    for (const id of (await listed()).keys()) await expectListedAsRead(id);
    expect((await listed()).size).toBe(2);
  });

  it('shows its venue renamed: the kept event embeds the venue as it is now', async () => {
    expect((await listed()).get(eventId)).toMatchObject({ venue: { venue: 'Teatro Uno' } });
    await write(`venues/${venueId}`, { venue: 'Teatro Due' });
    expect((await listed()).get(eventId)).toMatchObject({ venue: { id: venueId, venue: 'Teatro Due' } });
    await expectListedAsRead(eventId);
  });

  it('shows its organizer changed, and no venue once its venue is in the trash', async () => {
    await write(`organizers/${organizerId}`, { organizer: 'Anna Bianchi' });
    expect((await listed()).get(eventId)).toMatchObject({ organizer: [{ organizer: 'Anna Bianchi' }] });
    expect((await server.api(`venues/${venueId}`, { method: 'DELETE', auth: server.admin })).status).toBe(
      200,
    );
    expect((await listed()).get(eventId)?.venue).toEqual([]);
    await expectListedAsRead(eventId);
  });

  it('shows a renamed category, and the count of its events as it is now', async () => {
    const before = (await listed()).get(eventId) as { categories: Array<{ name: string; count: number }> };
    expect(before.categories).toEqual([expect.objectContaining({ name: 'Jazz', count: 1 })]);
    await write(`categories/${categoryId}`, { name: 'Jazz & Blues' });
    await write('events', eventBody('Blues Night', 6, { categories: [categoryId] }));
    const after = (await listed()).get(eventId) as typeof before;
    expect(after.categories).toEqual([expect.objectContaining({ name: 'Jazz & Blues', count: 2 })]);
    await expectListedAsRead(eventId);
  });

  it('writes a description with quotes, escapes and any script, and its dates, byte for byte', async () => {
    const description = '<p>Say "hi" \\ back</p>\n\t\u2028\u0001 Łódź €12 日本 🎷 ' + '\u00e9'.repeat(300);
    const { id } = await write('events', { ...eventBody('Odd Text', 5), description });
    const single = await server.api(`events/${id}`);
    const listedText = await (await fetch(`${server.base}events?per_page=50&${window}`)).text();
    // The list's own bytes (not parsed again) hold the event exactly as serializing it gives.
    expect(listedText).toContain(JSON.stringify(withoutJsonLd(single.body)));
    expect((await listed()).get(id)).toMatchObject({
      description,
      start_date_details: { day: DAY.slice(8) },
    });
    await write(`events/${id}`, { status: 'trash' }, 'PUT');
  });

  it('shows a picture given to it, and the next one, at once', async () => {
    const uploadPicture = async (name: string) => {
      const response = await fetch(`${server.engine.apiRoot}calendar-desk/v1/media`, {
        method: 'POST',
        headers: {
          ...server.admin,
          'Content-Type': 'image/png',
          'Content-Disposition': `attachment; filename="${name}"`,
        },
        body: PNG,
      });
      expect(response.status).toBe(201);
      return (await response.json()) as { id: number; url: string };
    };
    const first = await uploadPicture('poster.png');
    await write(`events/${eventId}`, { image: first.id });
    expect((await listed()).get(eventId)?.image).toMatchObject({ id: first.id, url: first.url });
    const second = await uploadPicture('flyer.png');
    await write(`events/${eventId}`, { image: second.id });
    expect((await listed()).get(eventId)?.image).toMatchObject({ id: second.id, url: second.url });
    await expectListedAsRead(eventId);
  });

  it('is blanked as soon as it gets a password, and shown in full once it is removed', async () => {
    const id = (await write('events', eventBody('Open Rehearsal', 5, { cost: '4' }))).id;
    expect((await listed()).get(id)).toMatchObject({ cost: '$4' });
    await write(`events/${id}`, { post_password: 'backstage' });
    expect((await listed()).get(id)).toMatchObject({ title: 'Open Rehearsal', cost: '', description: '' });
    await write(`events/${id}`, { post_password: '' });
    expect((await listed()).get(id)).toMatchObject({ cost: '$4' });
    await expectListedAsRead(id);
  });

  it('shows its own change at once', async () => {
    await write(`events/${eventId}`, { title: 'Jazz Night (moved)', cost: '18' });
    expect((await listed()).get(eventId)).toMatchObject({ title: 'Jazz Night (moved)', cost: '$18' });
  });

  it("follows the site's currency", async () => {
    expect((await listed()).get(eventId)?.cost).toBe('$18');
    await write(settingsUrl(), { currency_symbol: '€', currency_position: 'postfix' }, 'PUT');
    expect((await listed()).get(eventId)).toMatchObject({ cost: '18€' });
    await expectListedAsRead(eventId);
    await write(settingsUrl(), { currency_symbol: '$', currency_position: 'prefix' }, 'PUT');
    expect((await listed()).get(eventId)?.cost).toBe('$18');
  });

  it('carries the addresses of the root it was asked on (a language root gives its own links)', async () => {
    const plain = (await listed()).get(eventId) as { rest_url: string; categories: Array<{ urls: object }> };
    const italian = (await listed('', { root: `${server.engine.origin}/it/${NS}/` })).get(
      eventId,
    ) as typeof plain;
    expect(plain.rest_url).toBe(`${server.base}events/${eventId}`);
    expect(italian.rest_url).toBe(`${server.engine.origin}/it/${NS}/events/${eventId}`);
    expect(italian.categories[0].urls).toEqual({
      self: `${server.engine.origin}/it/${NS}/categories/${categoryId}`,
      collection: `${server.engine.origin}/it/${NS}/categories`,
    });
    // And the plain root still gets its own after the Italian one was kept.
    expect(((await listed()).get(eventId) as typeof plain).rest_url).toBe(plain.rest_url);
  });
});

describe('answers that differ per caller', () => {
  it('show a password-protected event blanked to anyone, in full with its password', async () => {
    const secret = (
      await write('events', eventBody('Members Evening', 5, { post_password: 'opensesame', cost: '9' }))
    ).id;
    const blanked = (await listed()).get(secret);
    expect(blanked).toMatchObject({ title: 'Members Evening', cost: '', description: '' });
    expect((await listed('&password=opensesame')).get(secret)).toMatchObject({ cost: '$9' });
    expect((await listed()).get(secret)).toMatchObject({ cost: '' });
  });

  it('give the editor the cost as typed in context=edit, and never share it with anyone else', async () => {
    const typed = (await write('events', eventBody('Quiz', 5, { cost: '5 - 8 per person' }))).id;
    expect((await listed()).get(typed)?.cost).toBe('$5 – $8');
    const editor = await listed('&context=edit', { auth: server.admin });
    expect(editor.get(typed)?.cost).toBe('5 - 8 per person');
    expect((await listed('&context=edit')).get(typed)?.cost).toBe('$5 – $8');
    expect((await listed()).get(typed)?.cost).toBe('$5 – $8');
  });
});
