import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { PNG } from '../helpers/fixtures';
import { at } from './events.helpers';

// The write budget (issue 26, item 4): a contributor sent 1,000 endless daily series and the calendar grew to
// 728,000 events. Accounts below editor now add at most so many records and repeating events per hour (Settings,
// administrators only), answered 429 with Retry-After; editors and administrators are not counted.

const START = Date.parse('2027-03-01T09:00:00Z');

describe('the write budget of accounts below editor', () => {
  let server: TestServer;
  let now: number;
  let contributor: Record<string, string>;
  let author: Record<string, string>;
  let editor: Record<string, string>;

  beforeEach(async () => {
    now = START;
    server = await startTestServer({ clock: () => new Date(now) });
    contributor = await server.userHeaders('connie', 'contributor');
    author = await server.userHeaders('arthur', 'author');
    editor = await server.userHeaders('edith', 'editor');
  });
  afterEach(() => server.close());

  const settings = (json?: Record<string, unknown>, auth = server.admin) =>
    server.api(`${server.engine.apiRoot}calendar-desk/v1/settings`, {
      method: json ? 'PUT' : 'GET',
      auth,
      json,
    });
  let day = 0;
  const post = (auth: Record<string, string>, extra: Record<string, unknown> = {}) => {
    day++;
    const date = `2027-04-${String((day % 28) + 1).padStart(2, '0')}`;
    return server.api('events', {
      method: 'POST',
      auth,
      json: at(`Event ${day}`, `${date} 10:00:00`, `${date} 11:00:00`, extra),
    });
  };
  const daily = (auth: Record<string, string>) => post(auth, { recurrence: ['RRULE:FREQ=DAILY'] });
  const eventCount = () => server.engine.store.events.size;

  it('has defaults an administrator sees and changes in Settings; others may not change them', async () => {
    const shown = await settings();
    expect(shown.body).toMatchObject({
      write_budget_creates_per_hour: 200,
      write_budget_occurrences_per_hour: 5000,
    });
    const changed = await settings({
      write_budget_creates_per_hour: 3,
      write_budget_occurrences_per_hour: 900,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      write_budget_creates_per_hour: 3,
      write_budget_occurrences_per_hour: 900,
    });
    const bad = await settings({ write_budget_creates_per_hour: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.data.params.write_budget_creates_per_hour).toMatch(/from 1 to 1000000/);
    expect((await settings({ write_budget_creates_per_hour: 1000 }, editor)).status).toBe(403);
    expect((await settings(undefined, contributor)).body.write_budget_creates_per_hour).toBe(3);
  });

  it('answers a contributor past the hourly creates 429 with Retry-After in the documented shape; the hour slides', async () => {
    expect((await settings({ write_budget_creates_per_hour: 3 })).status).toBe(200);
    // Three events ten minutes apart: the hour's first leaves it at 60 minutes, the second at 70.
    for (let i = 0; i < 3; i++) {
      if (i > 0) now += 10 * 60_000;
      expect((await post(contributor)).status).toBe(201);
    }
    const before = eventCount();
    const refused = await post(contributor);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 'rest_write_budget_exceeded',
      message: expect.stringMatching(/may add 3 new records an hour.*try again in 2400 seconds/),
      data: { status: 429 },
    });
    // The first was made 20 minutes ago: it leaves the hour in 40 minutes.
    expect(refused.headers.get('Retry-After')).toBe('2400');
    expect(eventCount()).toBe(before);
    // Venues count too; an edit that adds nothing is still allowed.
    const venue = await server.api('venues', { method: 'POST', auth: contributor, json: { venue: 'Hall' } });
    expect(venue.status).toBe(429);
    const own = server.engine.store.events.values().next().value!;
    const edit = await server.api(`events/${own.id}`, {
      method: 'PUT',
      auth: contributor,
      json: { title: 'Renamed' },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);

    // Once Retry-After has passed, one more fits again; the next when the second leaves the hour.
    now += 2400 * 1000;
    expect((await post(contributor)).status).toBe(201);
    const next = await post(contributor);
    expect(next.status).toBe(429);
    expect(next.headers.get('Retry-After')).toBe('600');
  });

  it('counts an author’s pictures as new records', async () => {
    expect((await settings({ write_budget_creates_per_hour: 1 })).status).toBe(200);
    const upload = () =>
      server.api(`${server.engine.apiRoot}calendar-desk/v1/media`, {
        method: 'POST',
        auth: author,
        headers: { 'Content-Type': 'image/png', 'Content-Disposition': 'attachment; filename="a.png"' },
        body: PNG,
      });
    expect((await upload()).status).toBe(201);
    const refused = await upload();
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rest_write_budget_exceeded');
    expect(refused.headers.get('Retry-After')).toBe('3600');
    // Refused before the file was written: one picture in the media folder.
    expect(await readdir(join(server.dataDir, 'media'))).toHaveLength(1);
  });

  it('counts an author’s picture as one record per started MiB: 10 MiB pictures cannot fill the disk', async () => {
    expect((await settings({ write_budget_creates_per_hour: 5 })).status).toBe(200);
    const MiB = 1024 * 1024;
    const upload = (size: number) =>
      server.api(`${server.engine.apiRoot}calendar-desk/v1/media`, {
        method: 'POST',
        auth: author,
        headers: { 'Content-Type': 'image/png', 'Content-Disposition': 'attachment; filename="big.png"' },
        // A real PNG's bytes, then padding up to the size (the picture is read by its header).
        body: Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]),
      });
    const tooBig = await upload(6 * MiB - 10);
    expect(tooBig.status).toBe(429);
    expect(tooBig.body.message).toBe(
      'A picture counts as one new record per started MiB: this one of 6 MiB counts as 6, more than the 5 an ' +
        'hour your account may add. Send a smaller picture, or ask an administrator to raise the limit in Settings.',
    );
    expect((await upload(3 * MiB - 10)).status).toBe(201);
    const past = await upload(3 * MiB - 10);
    expect(past.status).toBe(429);
    expect(past.body.message).toMatch(
      /a picture counts as one per started MiB\), and has reached that limit/,
    );
    // Two MiB are left this hour: a small picture and an event still fit.
    expect((await upload(1000)).status).toBe(201);
    expect((await post(author)).status).toBe(201);
    expect((await post(author)).status).toBe(429);
    // Only the pictures taken are in the media folder.
    expect(await readdir(join(server.dataDir, 'media'))).toHaveLength(2);
  });

  it('does not count administrators or editors, and counts each account apart', async () => {
    expect((await settings({ write_budget_creates_per_hour: 2 })).status).toBe(200);
    for (let i = 0; i < 6; i++) {
      expect((await post(server.admin)).status).toBe(201);
      expect((await post(editor)).status).toBe(201);
    }
    expect((await post(contributor)).status).toBe(201);
    expect((await post(contributor)).status).toBe(201);
    expect((await post(contributor)).status).toBe(429);
    // The author has a budget of their own, spent by neither.
    expect((await post(author)).status).toBe(201);
    expect((await post(author)).status).toBe(201);
    expect((await post(author)).status).toBe(429);
  });

  it('takes a change of the budget at once: raised, the contributor may go on', async () => {
    expect((await settings({ write_budget_creates_per_hour: 1 })).status).toBe(200);
    expect((await post(contributor)).status).toBe(201);
    expect((await post(contributor)).status).toBe(429);
    expect((await settings({ write_budget_creates_per_hour: 3 })).status).toBe(200);
    expect((await post(contributor)).status).toBe(201);
    expect((await post(contributor)).status).toBe(201);
    expect((await post(contributor)).status).toBe(429);
  });

  it('counts the records an event brings along; one write adding more than the hour allows says so, kept whole', async () => {
    expect((await settings({ write_budget_creates_per_hour: 5 })).status).toBe(200);
    const counts = () =>
      [
        server.engine.store.events.size,
        server.engine.store.venues.size,
        server.engine.store.organizers.size,
        server.engine.store.terms.size,
      ].join(' ');
    const before = counts();
    // The event, its venue, two organizers, a category and a tag: six new records in one write.
    const refused = await post(contributor, {
      venue: { venue: 'New hall' },
      organizer: [{ organizer: 'New choir' }, { organizer: 'New band' }],
      categories: ['New category'],
      tags: ['New tag'],
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'rest_write_budget_exceeded', data: { status: 429 } });
    expect(refused.body.message).toBe(
      'This change would add 6 new records at once (with its new venue, organizers, categories and tags), ' +
        'more than the 5 an hour your account may add. Choose existing ones instead, or ask an administrator ' +
        'to raise the limit in Settings.',
    );
    expect(counts()).toBe(before);
    // Five fit, and fill the hour.
    const taken = await post(contributor, {
      venue: { venue: 'New hall' },
      organizer: [{ organizer: 'New choir' }],
      categories: ['New category'],
      tags: ['New tag'],
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(201);
    const next = await post(contributor);
    expect(next.status).toBe(429);
    expect(next.body.message).toMatch(/has reached that limit/);
  });

  it('counts a single event made an endless series by every spelling of a change', async () => {
    expect((await settings({ write_budget_occurrences_per_hour: 100 })).status).toBe(200);
    const created = await post(contributor);
    expect(created.status).toBe(201);
    const { id, slug } = created.body as { id: number; slug: string };
    const origin = server.engine.origin;
    const endless = { recurrence: ['RRULE:FREQ=DAILY'] };
    const spellings: Array<[string, string]> = [
      ['PATCH', `events/${id}`],
      ['PUT', `events/${id}`],
      ['POST', `events/${id}?_method=PATCH`],
      ['POST', `events/by-slug/${slug}`],
      ['POST', `${origin}/?rest_route=/cal/events/v1/events/${id}`],
      ['POST', `${origin}/it/wp-json/cal/events/v1/events/${id}`],
      ['POST', `${origin}/wp-json/CAL/events/v1/events/${id}`],
    ];
    for (const [method, path] of spellings) {
      const answer = await server.api(path, { method, auth: contributor, json: endless });
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(429);
      expect(answer.body.code).toBe('rest_write_budget_exceeded');
    }
    expect(eventCount()).toBe(1);
    expect(server.engine.store.events.get(id)!.recurrence ?? []).toEqual([]);
  });

  it('counts the events a series makes: an endless daily series past the hourly allowance is refused whole', async () => {
    expect((await settings({ write_budget_occurrences_per_hour: 1000 })).status).toBe(200);
    // Made up to the 24-month horizon: some 700 events after its first.
    const first = await daily(contributor);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const series = eventCount();
    expect(series).toBeGreaterThan(600);
    const second = await daily(contributor);
    expect(second.status).toBe(429);
    expect(second.body.code).toBe('rest_write_budget_exceeded');
    expect(second.body.message).toMatch(/1000 events of repeating series an hour/);
    expect(Number(second.headers.get('Retry-After'))).toBe(3600);
    expect(eventCount()).toBe(series);
    // A series larger than the whole allowance can never fit: said in plain words.
    expect((await settings({ write_budget_occurrences_per_hour: 500 })).status).toBe(200);
    now += 3600_000;
    const tooLarge = await daily(contributor);
    expect(tooLarge.status).toBe(429);
    expect(tooLarge.body.message).toMatch(/\d{3} events of a repeating series at once, more than the 500/);
    // The administrator's series are not counted.
    expect((await daily(server.admin)).status).toBe(201);
    expect(eventCount()).toBeGreaterThan(2 * 600);
  });

  it('counts the events a change of a series adds: weekly made daily past the allowance is refused, unchanged', async () => {
    expect((await settings({ write_budget_occurrences_per_hour: 400 })).status).toBe(200);
    const weekly = await post(contributor, { recurrence: ['RRULE:FREQ=WEEKLY'] });
    expect(weekly.status, JSON.stringify(weekly.body)).toBe(201);
    const before = eventCount();
    const changed = await server.api(`events/${weekly.body.id}`, {
      method: 'PUT',
      auth: contributor,
      json: { recurrence: ['RRULE:FREQ=DAILY'], scope: 'all' },
    });
    expect(changed.status).toBe(429);
    expect(changed.body.code).toBe('rest_write_budget_exceeded');
    expect(eventCount()).toBe(before);
    const read = await server.api(`events/${weekly.body.id}`, { auth: contributor });
    expect(read.body.recurrence).toEqual(['RRULE:FREQ=WEEKLY']);
  });

  it('a contributor scripting endless daily series is stopped by the budget: the data folder stays small', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await daily(contributor)).status);
    // 5,000 events an hour: seven series of some 700 fit, then every further one is refused.
    const made = statuses.filter((status) => status === 201).length;
    expect(made).toBeGreaterThanOrEqual(6);
    expect(made).toBeLessThanOrEqual(8);
    expect(statuses.slice(made).every((status) => status === 429)).toBe(true);
    expect(eventCount()).toBeLessThanOrEqual(5000 + made);
    await server.engine.store.idle();
    let bytes = 0;
    for (const name of await readdir(server.dataDir)) {
      const info = await stat(join(server.dataDir, name));
      if (info.isFile()) bytes += info.size;
    }
    // 20 such series would be some 14,000 events (over 20 MB); seven are under 10 MB.
    expect(bytes).toBeLessThan(10 * 1024 * 1024);
  });
});
